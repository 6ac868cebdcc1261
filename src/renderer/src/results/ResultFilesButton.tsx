// "Files out" in the window: every succeeded item's own file (speech and images as received, a
// .txt per transcript, OCR text or text result, and a transcript's .srt, .vtt and .json), named
// after its source file or row. The desktop
// app writes them into a folder the user picks ("Save results to folder..."); the browser host
// downloads them as one zip, streamed ("Download results (.zip)"). Shown only for capabilities
// whose items have files; channel sends, embeddings and CRM writes export as CSV or JSON.
import { useId, useState } from 'react';
import type { BatchSummary } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { itemFileKind, textFileExtensions } from '../../../shared/capabilities/result-files';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatCount } from '../format/time';

const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

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
      ? 'each item\u2019s file as received'
      : exts.length > 1
        ? `${exts.slice(0, -1).join(', ')} and ${exts[exts.length - 1] ?? ''} files per item`
        : `a ${exts[0] ?? '.txt'} file per item`;
  const hint =
    succeeded === 0
      ? 'No item has succeeded yet, so there are no result files. They can be saved once items are done.'
      : `${plural(succeeded, 'item', 'items')} as files: ${what}, named after ${describe(batch.capability).input.kind === 'files' ? 'its source file' : 'its row'}.${open > 0 ? ` ${plural(open, 'item has', 'items have')} no file (failed or not done).` : ''}`;

  const save = () =>
    action.run(async () => {
      setNote(null);
      if (zipUrl !== null) {
        startDownload(zipUrl);
        setNote(`Downloading the results of ${batch.name} as a zip.`);
        return;
      }
      const r = await client().call('batches.saveFiles', { id: batch.id });
      if (r.dir === null) return setNote('Nothing saved: no folder was chosen.');
      const extra =
        r.problemCount > 0
          ? ` ${plural(r.problemCount, 'item', 'items')} could not be saved: ${r.problems[0]?.item ?? ''}: ${r.problems[0]?.message ?? ''}${r.problemCount > 1 ? ' (and others)' : ''}.`
          : '';
      if (extra) action.setError(extra.trim());
      // Invoices: how many UBL files are EN 16931, and where the missing business terms of the others are listed.
      const ubl = r.ubl
        ? ` UBL: ${r.ubl.declared} of ${r.ubl.declared + r.ubl.notDeclared} pass EN 16931${r.ubl.notDeclared > 0 ? `; the missing business terms of the others are listed in ${r.ubl.report}` : ''}.`
        : '';
      setNote(
        `Saved ${plural(r.written, 'file', 'files')} to ${r.dir}${r.noFile > 0 ? ` (${plural(r.noFile, 'item', 'items')} had no file: failed or not done)` : ''}. Nothing there was overwritten.${ubl}`,
      );
    });

  return (
    <section className="result-files row" aria-label="Result files" data-testid="result-files">
      <button type="button" onClick={() => void save()} disabled={action.busy || succeeded === 0} aria-describedby={hintId}>
        {zipUrl !== null ? 'Download results (.zip)' : 'Save results to folder\u2026'}
      </button>
      <span id={hintId} className="field-hint">
        {hint}
      </span>
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
    </section>
  );
}
