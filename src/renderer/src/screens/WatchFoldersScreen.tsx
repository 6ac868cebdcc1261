// #/watch: hot folders. Each watched folder with what is done to its files, today's count and
// batch, the last file and the files set aside (name, cause, what to do); add one (a typed path,
// or the native folder dialog in the desktop app) and remove one after a confirmation. The list is
// read again every few seconds while the screen is open, so files taken in the background show up.
import { useCallback, useEffect, useId, useState } from 'react';
import type { WatchAdd, WatchView } from '../../../shared/contract';
import { BATCH_CAPABILITIES, TIERS, type BatchCapability, type Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { parseStep, type PipelineStep } from '../../../shared/capabilities/steps';
import { BATCH_SETTINGS, readSetting, type SettingName } from '../../../shared/capabilities/options';
import { RecordField } from '../components/RecordField';
import { client } from '../client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatDateTime } from '../format/time';
import { formatMoney } from '../format/money';
import '../watch/watch.css';

const WATCHABLE = BATCH_CAPABILITIES.filter((c) => describe(c).input.kind === 'files');
const REFRESH_MS = 2_000;

/** The batch records' privacy settings a watched folder takes (one record: CLI flag, contract field, this control). */
const PRIVACY_SETTINGS = ['redact', 'redactStored', 'keepFilesDays', 'keepResultsDays'] as const satisfies readonly SettingName[];
type PrivacySetting = (typeof PRIVACY_SETTINGS)[number];

/** The typed privacy fields checked by their records' rules; a field's rule names the field. */
function readPrivacy(typed: Partial<Record<PrivacySetting, string>>): {
  redact?: NonNullable<WatchAdd['redact']>;
  redactStored?: true;
  keepFilesDays?: number;
  keepResultsDays?: number;
} {
  const out: ReturnType<typeof readPrivacy> = {};
  const text = (n: PrivacySetting) => (typed[n] ?? '').trim();
  const read = <N extends PrivacySetting>(n: N) => {
    const r = readSetting(n, text(n));
    if (!r.ok) throw new Error(`${BATCH_SETTINGS[n].field.label}: ${r.message} (got "${text(n)}").`);
    return r.value;
  };
  if (text('redact') !== '') out.redact = read('redact');
  if (text('redactStored') === 'yes') out.redactStored = true;
  if (text('keepFilesDays') !== '') out.keepFilesDays = read('keepFilesDays');
  if (text('keepResultsDays') !== '') out.keepResultsDays = read('keepResultsDays');
  return out;
}

/** The folder's privacy rules in a line: "redacts all (stored copy too) · files kept 30 days · originals deleted after success". */
function privacyLine(w: WatchView): string[] {
  const parts: string[] = [];
  if (w.redact) parts.push(`redacts ${w.redact.join(', ')}${w.redactStored ? ' (stored copy too)' : ''}`);
  if (w.keepFilesDays !== null) parts.push(`files deleted after ${w.keepFilesDays} days`);
  if (w.keepResultsDays !== null) parts.push(`results dropped after ${w.keepResultsDays} days`);
  if (w.deleteOriginals) parts.push('originals deleted after success');
  return parts;
}

function AddWatchForm({ onAdded }: { onAdded: (w: WatchView) => void }) {
  const [dir, setDir] = useState('');
  const [capability, setCapability] = useState<BatchCapability>(WATCHABLE[0] ?? 'ocr');
  const [tier, setTier] = useState<Tier>('standard');
  const [ext, setExt] = useState('');
  const [then, setThen] = useState('');
  const [key, setKey] = useState('');
  const [budget, setBudget] = useState('');
  const [privacy, setPrivacy] = useState<Partial<Record<PrivacySetting, string>>>({});
  const [deleteOriginals, setDeleteOriginals] = useState(false);
  const [native, setNative] = useState(false);
  const add = useAction();
  const id = useId();
  useEffect(() => {
    void client()
      .call('app.info', {})
      .then(
        (i) => setNative(i.nativeDialogs),
        () => setNative(false),
      );
  }, []);

  const choose = () =>
    add.run(async () => {
      const r = await client().call('dialogs.open', { kind: 'folder' });
      if (r.supported && r.paths[0]) setDir(r.paths[0]);
    });

  const submit = () =>
    add.run(async () => {
      const steps: PipelineStep[] = [];
      for (const text of then
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')) {
        const s = parseStep(text);
        if (!s.ok) throw new Error(`Next step: ${s.message}`);
        steps.push(s.step);
      }
      let budgetPerDay: number | null = null;
      if (budget.trim() !== '') {
        const r = readSetting('budget', budget);
        if (!r.ok) throw new Error(`Budget per day: ${r.message} (got "${budget.trim()}").`);
        budgetPerDay = r.value;
      }
      const settings = readPrivacy(privacy);
      const extensions = ext
        .split(',')
        .map((e) => e.trim().toLowerCase().replace(/^\.+/, ''))
        .filter((e) => e !== '');
      const w = await client().call('watch.add', {
        dir: dir.trim(),
        capability,
        tier,
        ...(extensions.length > 0 ? { extensions } : {}),
        ...(steps.length > 0 ? { then: steps } : {}),
        ...(key.trim() !== '' ? { key: key.trim() } : {}),
        budgetPerDay,
        ...settings,
        ...(deleteOriginals ? { deleteOriginals: true } : {}),
      });
      setDir('');
      setExt('');
      setThen('');
      setPrivacy({});
      setDeleteOriginals(false);
      onAdded(w);
    });

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Watch a folder</h2>
      <form
        className="watch__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field watch__dir">
          <label htmlFor={`${id}-dir`}>Folder</label>
          <div className="row">
            <input
              id={`${id}-dir`}
              type="text"
              className="mono"
              value={dir}
              placeholder="/home/office/scans/invoices"
              onChange={(e) => setDir(e.target.value)}
              aria-describedby={`${id}-dir-hint`}
            />
            {native ? (
              <button type="button" onClick={() => void choose()} disabled={add.busy}>
                Choose folder…
              </button>
            ) : null}
          </div>
          <span id={`${id}-dir-hint`} className="field-hint">
            {native ? 'A folder on this computer.' : 'The full path of a folder on the computer running Batchdesk.'} Subfolders are included.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-cap`}>Do with each file</label>
          <select id={`${id}-cap`} value={capability} onChange={(e) => setCapability(e.target.value as BatchCapability)}>
            {WATCHABLE.map((c) => (
              <option key={c} value={c}>
                {describe(c).label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-tier`}>Tier</label>
          <select id={`${id}-tier`} value={tier} onChange={(e) => setTier(e.target.value as Tier)}>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-ext`}>Only these extensions</label>
          <input id={`${id}-ext`} type="text" value={ext} placeholder="pdf, png (empty: every file)" onChange={(e) => setExt(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-then`}>Then (optional)</label>
          <input id={`${id}-then`} type="text" value={then} placeholder="text:summary" onChange={(e) => setThen(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-key`}>Key label (optional)</label>
          <input id={`${id}-key`} type="text" value={key} placeholder="default key" onChange={(e) => setKey(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-budget`}>Budget per day, EUR (optional)</label>
          <input id={`${id}-budget`} type="text" inputMode="decimal" value={budget} placeholder="none" onChange={(e) => setBudget(e.target.value)} />
        </div>
        <fieldset className="watch__privacy">
          <legend>Privacy for this folder</legend>
          {PRIVACY_SETTINGS.map((n) => (
            <RecordField
              key={n}
              field={BATCH_SETTINGS[n].field}
              value={privacy[n] ?? ''}
              error={undefined}
              onChange={(v) => setPrivacy((p) => ({ ...p, [n]: v }))}
            />
          ))}
          <div className="field watch__originals">
            <div className="row">
              <input
                id={`${id}-originals`}
                type="checkbox"
                checked={deleteOriginals}
                aria-describedby={`${id}-originals-warning`}
                onChange={(e) => setDeleteOriginals(e.target.checked)}
              />
              <label htmlFor={`${id}-originals`}>Delete originals after success</label>
            </div>
            <span id={`${id}-originals-warning`} className={deleteOriginals ? 'field-error' : 'field-hint'}>
              <strong>Warning:</strong> this deletes your own files in this folder: each file goes once every step of its item succeeded
              {privacy.keepFilesDays ? ' and the days above passed' : ''}. They are not moved to the bin. Each deletion is in the retention log (Keys &amp;
              rates).
            </span>
          </div>
        </fieldset>
        <div className="watch__submit">
          <button type="submit" className="primary" disabled={add.busy || dir.trim() === ''}>
            Watch folder
          </button>
        </div>
      </form>
      <ErrorAlert message={add.error} />
    </section>
  );
}

function WatchRow({ w, onRemove, busy }: { w: WatchView; onRemove: () => void; busy: boolean }) {
  return (
    <tr data-testid="watch-row">
      <th scope="row" className="mono watch__folder">
        {w.dir}
      </th>
      <td>
        {w.steps}
        <div className="muted">
          {w.tier}
          {w.extensions ? ` · ${w.extensions.join(', ')}` : ''}
          {w.key ? ` · key ${w.key}` : ''}
          {w.budgetPerDay !== null ? ` · ${formatMoney(w.budgetPerDay)} a day` : ''}
        </div>
        {privacyLine(w).length > 0 ? (
          <div className="muted" data-testid="watch-privacy">
            {privacyLine(w).join(' · ')}
          </div>
        ) : null}
      </td>
      <td className="tabular" data-testid="watch-today">
        {w.todayBatch ? <a href={`#/batches/${encodeURIComponent(w.todayBatch)}`}>{w.takenToday} file(s)</a> : `${w.takenToday} file(s)`}
      </td>
      <td data-testid="watch-last">
        {w.lastFile ? (
          <>
            <span className="mono">{w.lastFile.path.slice(w.dir.length + 1) || w.lastFile.path}</span>
            <div className="muted">{formatDateTime(w.lastFile.at)}</div>
          </>
        ) : (
          <span className="muted">none yet</span>
        )}
      </td>
      <td data-testid="watch-problems">
        {w.problems.length === 0 && w.skipped.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <details>
            <summary>
              {w.problems.length > 0 ? `${w.problems.length} set aside` : ''}
              {w.problems.length > 0 && w.skipped.length > 0 ? ', ' : ''}
              {w.skipped.length > 0 ? `${w.skipped.length} skipped as copies` : ''}
            </summary>
            <ul className="watch__problems">
              {[...w.problems, ...w.skipped].map((p) => (
                <li key={`${p.path}:${p.at}`}>{p.message ?? p.path}</li>
              ))}
            </ul>
          </details>
        )}
      </td>
      <td>
        <button type="button" className="link-like" onClick={onRemove} disabled={busy}>
          Remove<span className="visually-hidden"> {w.dir}</span>
        </button>
      </td>
    </tr>
  );
}

export function WatchFoldersScreen() {
  const [list, setList] = useState<WatchView[] | null>(null);
  const [removing, setRemoving] = useState<WatchView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useAction();
  const change = useAction();
  const { run } = load;
  const reload = useCallback(() => void run(async () => setList(await client().call('watch.list', {}))), [run]);
  useEffect(() => {
    reload();
    const t = setInterval(reload, REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);

  const remove = (w: WatchView) =>
    change.run(async () => {
      await client().call('watch.remove', { id: w.id });
      setNote(`No longer watching ${w.dir}. Its batches stay and are still sent.`);
      reload();
    });

  return (
    <div className="screen watch stack">
      <h1>Watch folders</h1>
      <p className="muted">
        Files dropped into a watched folder (subfolders too) become items of that folder&apos;s batch of the day, sent while Batchdesk is open (or{' '}
        <code>batchdesk run --watch</code> runs). A file is taken once it has stopped changing for a few seconds; hidden files and unfinished downloads are left
        alone; a file whose content was already taken (moved, renamed, copied) is skipped. A file that cannot be processed is moved into{' '}
        <code>.batchdesk-set-aside</code> in the folder, with the reason below.
      </p>
      <AddWatchForm
        onAdded={(w) => {
          setNote(`Watching ${w.dir}: files already there are taken now, new ones as they arrive.`);
          reload();
        }}
      />
      <StatusNote message={note} />
      <ErrorAlert message={load.error ?? change.error} />
      <section className="card stack" aria-labelledby="watch-list-h">
        <h2 id="watch-list-h">Watched folders</h2>
        {list === null ? null : list.length === 0 ? (
          <p className="muted">No folder is watched yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="watch__table">
              <caption className="visually-hidden">Watched folders</caption>
              <thead>
                <tr>
                  <th scope="col">Folder</th>
                  <th scope="col">Each file</th>
                  <th scope="col">Today</th>
                  <th scope="col">Last file</th>
                  <th scope="col">Problems</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((w) => (
                  <WatchRow key={w.id} w={w} busy={change.busy} onRemove={() => setRemoving(w)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={`Stop watching ${removing?.dir ?? ''}?`}
        confirmLabel="Yes, stop watching"
        dismissLabel="Keep watching"
        onDismiss={() => setRemoving(null)}
        onConfirm={() => {
          const w = removing;
          setRemoving(null);
          if (w) void remove(w);
        }}
      >
        <p>Files dropped there are no longer taken. Its batches stay, with their results, and items already taken are still sent.</p>
      </ConfirmDialog>
    </div>
  );
}
