// "Import a list" on the opt-out panel, as `batchdesk optout import FILE`: a CSV (a to, phone or
// email column) or a list with one recipient per line, dropped or chosen; the engine reads it and
// says how many were added, already on the list and refused, each refusal with its row and cause.
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import type { OptOutImportView } from '../../../shared/contract';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { toast } from '../components/toast-store';
import { formatCount } from '../format/time';
import { problemCause } from '../new-batch/problem-words';
import { filesFromInput, topLevelFiles } from '../new-batch/drop-files';
import type { DroppedFile } from '../transport';

const ACCEPT = '.csv,.tsv,.txt,text/csv,text/plain';

export function OptOutImport({ onImported }: { onImported(): void }) {
  const { t } = useTranslation('keys');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<OptOutImportView | null>(null);
  const electron = client().transport === 'electron';

  /** Runs one step of an import (upload, read), showing it busy and any failure where the control is. */
  const busyWith = async (fn: () => Promise<string | null>): Promise<void> => {
    setError(null);
    setResult(null);
    setBusy(true);
    try {
      const path = await fn();
      if (path === null) return;
      const r = await client().call('optouts.import', { path });
      setResult(r);
      toast(importSentence(r));
      onImported();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const importEntries = (entries: DroppedFile[]): Promise<void> => {
    if (entries.length !== 1) {
      setResult(null);
      setError(t('optOuts.import.oneFile'));
      return Promise.resolve();
    }
    // The browser uploads the file to the host first; Electron names it in place.
    return busyWith(async () => {
      const [path] = await client().pathsForDrop(entries);
      if (path === undefined) throw new Error(t('optOuts.import.noPath'));
      return path;
    });
  };

  const choose = async (): Promise<void> => {
    if (electron) {
      // The native dialog; where there is none, the file input below.
      const dialog = { supported: false };
      await busyWith(async () => {
        const r = await client().call('dialogs.open', { kind: 'csv' });
        dialog.supported = r.supported;
        return r.paths[0] ?? null;
      });
      if (dialog.supported) return;
    }
    input.current?.click();
  };

  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    e.preventDefault();
    setOver(false);
    void importEntries(electron ? topLevelFiles(e.dataTransfer.files) : Array.from(e.dataTransfer.files, (file) => ({ file, relativePath: file.name })));
  };

  return (
    <div className="stack">
      <h3>{t('optOuts.import.heading')}</h3>
      <div
        className={`optouts__drop${over ? ' optouts__drop--over' : ''}`}
        data-testid="optout-drop"
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="muted" id="optout-import-hint">
          {t('optOuts.import.hint')}
        </p>
        <button type="button" onClick={() => void choose()} disabled={busy} aria-describedby="optout-import-hint">
          {busy ? t('optOuts.import.busy') : t('optOuts.import.choose')}
        </button>
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          accept={ACCEPT}
          tabIndex={-1}
          aria-label={t('optOuts.import.file')}
          onChange={(e) => {
            const list = e.currentTarget.files;
            if (list) void importEntries(filesFromInput(list));
            e.currentTarget.value = '';
          }}
        />
      </div>
      <ErrorAlert message={error} />
      {result ? <ImportReport result={result} /> : null}
    </div>
  );
}

/** The import's outcome in one sentence: the report's first line and the toast. */
function importSentence(r: OptOutImportView): string {
  return tr('keys:optOuts.import.done', {
    file: r.file,
    added: tr('keys:optOuts.import.added', { count: r.added, n: formatCount(r.added) }),
    already: tr('keys:optOuts.import.already', { count: r.already, n: formatCount(r.already) }),
    refused: tr('keys:optOuts.import.refused', { count: r.refusedCount, n: formatCount(r.refusedCount) }),
    total: formatCount(r.total),
  });
}

function ImportReport({ result: r }: { result: OptOutImportView }) {
  const { t } = useTranslation('keys');
  return (
    <div className="stack" data-testid="optout-import-report">
      {/* Not a live region: the toast says the same sentence once (issue 42, one announcement). */}
      <p>{importSentence(r)}</p>
      {r.refused.length > 0 ? (
        <ul className="optouts__refused" aria-label={t('optOuts.import.refusedList', { file: r.file })}>
          {r.refused.map((p) => (
            <li key={`${p.unit}${p.row}:${p.message}`}>
              {t(p.unit === 'row' ? 'optOuts.import.row' : 'optOuts.import.line', { file: r.file, n: formatCount(p.row) })}: {problemCause(p.code)}{' '}
              {t('optOuts.import.notAdded')}
            </li>
          ))}
        </ul>
      ) : null}
      {r.refusedCount > r.refused.length ? <p className="muted">{t('optOuts.import.more', { n: formatCount(r.refusedCount - r.refused.length) })}</p> : null}
    </div>
  );
}
