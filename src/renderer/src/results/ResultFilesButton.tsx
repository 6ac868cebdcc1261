// "Files out" in the window: every succeeded item's own file (speech and images as received, a
// .txt per transcript, OCR text or text result, and a transcript's .srt, .vtt and .json), named
// after its source file or row. The desktop
// app writes them into a folder the user picks ("Save results to folder..."); the browser host
// downloads them as one zip, streamed ("Download results (.zip)"). Shown only for capabilities
// whose items have files; channel sends, embeddings and CRM writes export as CSV or JSON.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { itemFileKind, textFileExtensions } from '../../../shared/capabilities/result-files';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatCount } from '../format/time';
import { displaySource } from '../format/source';
import { exportProblemWords } from './export-problem-words';
import { ublWords } from './ubl-words';

/** Starts the zip download through a real <a download>: the browser streams it to disk. */
function startDownload(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = '';
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

export function ResultFilesButton({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('results');
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const hintId = useId();
  const kind = itemFileKind(batch.capability);
  if (kind === null) return null;

  const zipUrl = client().filesZipUrl(batch.id);
  const succeeded = batch.counts.succeeded;
  const open = batch.total - succeeded;
  const exts = textFileExtensions(batch.capability, 'files').map((e) => `.${e}`);
  const what =
    kind !== 'text'
      ? t('files.whatReceived')
      : exts.length > 1
        ? t('files.whatExtensions', { list: exts.slice(0, -1).join(', '), last: exts[exts.length - 1] ?? '' })
        : t('files.whatExtension', { ext: exts[0] ?? '.txt' });
  const asFiles = t(describe(batch.capability).input.kind === 'files' ? 'files.hintFiles' : 'files.hintRows', {
    count: succeeded,
    n: formatCount(succeeded),
    what,
  });
  const hint = succeeded === 0 ? t('files.none') : open > 0 ? `${asFiles} ${t('files.hintOpen', { count: open, n: formatCount(open) })}` : asFiles;

  const save = () =>
    action.run(async () => {
      setNote(null);
      if (zipUrl !== null) {
        startDownload(zipUrl);
        setNote(t('files.downloading', { name: batch.name }));
        return;
      }
      const r = await client().call('batches.saveFiles', { id: batch.id, title: t('files.dialogTitle', { name: batch.name }) });
      if (r.dir === null) return setNote(t('files.noFolder'));
      if (r.problemCount > 0) {
        const first = r.problems[0];
        const cause = first ? (exportProblemWords(first.problem) ?? first.message) : '';
        action.setError(
          t('files.problems', { count: r.problemCount, n: formatCount(r.problemCount), item: first ? displaySource(first.item) : '', message: cause }),
        );
      }
      const files = t('files.fileCount', { count: r.written, n: formatCount(r.written) });
      const saved =
        r.noFile > 0 ? t('files.savedNoFile', { count: r.noFile, n: formatCount(r.noFile), files, dir: r.dir }) : t('files.saved', { files, dir: r.dir });
      // Invoices: how many UBL files are EN 16931, and where the missing business terms of the others are listed.
      const ubl = ublWords(r.ubl);
      setNote(ubl !== null ? `${saved} ${ubl}` : saved);
    });

  return (
    <section className="result-files row" aria-label={t('files.label')} data-testid="result-files">
      <button type="button" onClick={() => void save()} disabled={action.busy || succeeded === 0} aria-describedby={hintId}>
        {zipUrl !== null ? t('files.download') : t('files.save')}
      </button>
      <span id={hintId} className="field-hint">
        {hint}
      </span>
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
    </section>
  );
}
