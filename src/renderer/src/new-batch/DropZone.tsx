// The drop zone (files and whole folders) and the pickers. In Electron dropped items keep their
// own paths and pickers are native dialogs; in the browser files are uploaded to the host first.
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { capabilityWords } from '../format/option-words';
import { formatCount } from '../format/time';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { acceptFor, takesFolders } from './input-accept';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { ProgressBar } from '../components/ProgressBar';
import { figureOf } from '../batches/progress-figure';
import { baseName } from '../format/labels';
import type { DroppedFile } from '../transport';
import { collectDrop, filesFromInput, topLevelFiles } from './drop-files';
import type { Source } from './draft-store';
import './DropZone.css';

/** Sources for a set of returned paths; in the browser each counts the files uploaded under it. */
function toSources(paths: string[], entries: DroppedFile[] | null): Source[] {
  return paths.map((path) => {
    const label = baseName(path);
    const files = entries ? entries.filter((e) => e.relativePath === label || e.relativePath.startsWith(`${label}/`)).length : null;
    return { path, label, files: files === 0 ? null : files };
  });
}

export function DropZone({ capability, onAdd }: { capability: BatchCapability; onAdd(sources: Source[]): void }) {
  const { t } = useTranslation('newBatch');
  const desc = describe(capability);
  const fileInput = desc.input.kind === 'files';
  const electron = client().transport === 'electron';
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [upload, setUpload] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const addEntries = async (entries: DroppedFile[]): Promise<void> => {
    if (entries.length === 0) {
      setError(t('drop.empty'));
      return;
    }
    setError(null);
    setUpload(electron ? null : { done: 0, total: entries.length });
    try {
      const paths = await client().pathsForDrop(entries, (done, total) => setUpload({ done, total }));
      if (paths.length === 0) throw new Error(t('drop.noPath'));
      onAdd(toSources(paths, electron ? null : entries));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setUpload(null);
    }
  };

  const pick = async (kind: 'files' | 'folder'): Promise<void> => {
    if (electron) {
      setError(null);
      try {
        const r = await client().call('dialogs.open', { kind: kind === 'files' && !fileInput ? 'csv' : kind });
        if (r.supported) {
          if (r.paths.length > 0) onAdd(toSources(r.paths, null));
          return;
        }
      } catch (e) {
        setError(errorMessage(e));
        return;
      }
    }
    (kind === 'files' ? filesInput : folderInput).current?.click();
  };

  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    e.preventDefault();
    setOver(false);
    const collected = electron ? Promise.resolve(topLevelFiles(e.dataTransfer.files)) : collectDrop(e.dataTransfer);
    collected.then(addEntries, (err: unknown) => setError(t('drop.unreadable', { error: errorMessage(err) })));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      void pick('files');
    }
  };

  const busy = upload !== null;
  return (
    <div className="drop">
      <div
        role="button"
        tabIndex={0}
        aria-label={t('drop.title')}
        aria-describedby="drop-zone-hint"
        aria-disabled={busy || undefined}
        className={`drop__zone${over ? ' drop__zone--over' : ''}`}
        onClick={() => !busy && void pick('files')}
        onKeyDown={(e) => !busy && onKeyDown(e)}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <span className="drop__title">{t('drop.title')}</span>
      </div>
      <p id="drop-zone-hint" className="drop__hint">
        {t('drop.hint', { what: capabilityWords(capability).inputHelp })}
      </p>
      <div className="row">
        <button type="button" onClick={() => void pick('files')} disabled={busy}>
          {fileInput ? t('drop.chooseFiles') : desc.input.kind === 'rows' && desc.input.column !== null ? t('drop.chooseCsvOrTxt') : t('drop.chooseCsv')}
        </button>
        {takesFolders(desc.input) ? (
          <button type="button" onClick={() => void pick('folder')} disabled={busy}>
            {t('drop.chooseFolder')}
          </button>
        ) : null}
        <input
          ref={filesInput}
          className="visually-hidden"
          type="file"
          multiple
          accept={acceptFor(desc.input)}
          tabIndex={-1}
          aria-label={t('drop.filesToAdd')}
          onChange={(e) => {
            const list = e.currentTarget.files;
            if (list) void addEntries(filesFromInput(list));
            e.currentTarget.value = '';
          }}
        />
        <input
          ref={(el) => {
            folderInput.current = el;
            // webkitdirectory is not a React prop; set it on the element itself.
            if (el) el.setAttribute('webkitdirectory', '');
          }}
          className="visually-hidden"
          type="file"
          multiple
          tabIndex={-1}
          aria-label={t('drop.folderToAdd')}
          onChange={(e) => {
            const list = e.currentTarget.files;
            if (list) void addEntries(filesFromInput(list));
            e.currentTarget.value = '';
          }}
        />
      </div>
      {upload ? (
        <div className="drop__upload" role="status">
          <span>{t('drop.uploading', { done: formatCount(upload.done), total: formatCount(upload.total) })}</span>
          <ProgressBar figure={figureOf(upload.done, 0, upload.total)} label={t('drop.uploadProgress')} />
        </div>
      ) : null}
      <ErrorAlert message={error} />
    </div>
  );
}
