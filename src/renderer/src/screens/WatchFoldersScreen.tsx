// #/watch: hot folders. Each watched folder with what is done to its files, today's count and
// batch, the last file, the files not taken yet (why) and the files set aside (name, cause, what to do); add one (a typed path,
// or the native folder dialog in the desktop app) and remove one after a confirmation. The list is
// read again every few seconds while the screen is open, so files taken in the background show up.
import { useCallback, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { WatchAdd, WatchView } from '../../../shared/contract';
import { assertNever, BATCH_CAPABILITIES, TIERS, type BatchCapability, type Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { capabilityWords, fieldWords, ruleWords, stepWords } from '../format/option-words';
import { StepsEditor } from '../new-batch/ThenSteps';
import { draftSteps, type DraftStep } from '../new-batch/draft-steps';
import { BATCH_SETTINGS, readSetting, type SettingName } from '../../../shared/capabilities/options';
import { RecordField } from '../components/RecordField';
import { client } from '../client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatCount, formatDateTime } from '../format/time';
import { TIER_LABEL } from '../format/labels';
import { t, t as tr } from '../i18n';
import { formatMoney } from '../format/money';
import { nameInFolder, watchNoteLine } from '../watch/watch-note-words';
import { problemTally, type ProblemTally } from '../watch/problem-tally';
import { WaitingFiles } from '../watch/WaitingFiles';
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
    if (!r.ok) throw new Error(t('watch:fieldError', { field: fieldWords(n).label, message: ruleWords(r), got: text(n) }));
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
  if (w.redact) parts.push(t(w.redactStored ? 'watch:privacy.redactsStored' : 'watch:privacy.redacts', { what: w.redact.join(', ') }));
  if (w.keepFilesDays !== null) parts.push(t('watch:privacy.filesDeleted', { count: w.keepFilesDays }));
  if (w.keepResultsDays !== null) parts.push(t('watch:privacy.resultsDropped', { count: w.keepResultsDays }));
  if (w.deleteOriginals) parts.push(t('watch:privacy.originalsDeleted'));
  return parts;
}

function AddWatchForm({ onAdded }: { onAdded: (w: WatchView) => void }) {
  const { t } = useTranslation('watch');
  const [dir, setDir] = useState('');
  const [capability, setCapability] = useState<BatchCapability>(WATCHABLE[0] ?? 'ocr');
  const [tier, setTier] = useState<Tier>('standard');
  const [ext, setExt] = useState('');
  const [then, setThen] = useState<DraftStep[]>([]);
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
      const steps = draftSteps(capability, then);
      if (!steps.ok) throw new Error(tr('newBatch:errors.step', { n: steps.n, problem: steps.problem }));
      let budgetPerDay: number | null = null;
      if (budget.trim() !== '') {
        const r = readSetting('budget', budget);
        if (!r.ok) throw new Error(t('fieldError', { field: t('form.budget'), message: ruleWords(r), got: budget.trim() }));
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
        ...(steps.steps.length > 0 ? { then: steps.steps } : {}),
        ...(key.trim() !== '' ? { key: key.trim() } : {}),
        budgetPerDay,
        ...settings,
        ...(deleteOriginals ? { deleteOriginals: true } : {}),
      });
      setDir('');
      setExt('');
      setThen([]);
      setPrivacy({});
      setDeleteOriginals(false);
      onAdded(w);
    });

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('form.heading')}</h2>
      <form
        className="watch__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field watch__dir">
          <label htmlFor={`${id}-dir`}>{t('form.folder')}</label>
          <div className="row">
            <input
              id={`${id}-dir`}
              type="text"
              className="mono"
              value={dir}
              placeholder={t('form.folderExample')}
              onChange={(e) => setDir(e.target.value)}
              aria-describedby={`${id}-dir-hint`}
            />
            {native ? (
              <button type="button" onClick={() => void choose()} disabled={add.busy}>
                {t('form.choose')}
              </button>
            ) : null}
          </div>
          <span id={`${id}-dir-hint`} className="field-hint">
            {native ? t('form.folderHintNative') : t('form.folderHint')}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-cap`}>{t('form.capability')}</label>
          <select
            id={`${id}-cap`}
            value={capability}
            onChange={(e) => {
              const c = e.target.value as BatchCapability;
              setCapability(c);
              // Steps that could not follow the new first one go (as New batch's Then does).
              if (!draftSteps(c, then).ok) setThen([]);
            }}
          >
            {WATCHABLE.map((c) => (
              <option key={c} value={c}>
                {capabilityWords(c).label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-tier`}>{t('form.tier')}</label>
          <select id={`${id}-tier`} value={tier} onChange={(e) => setTier(e.target.value as Tier)}>
            {TIERS.map((tier) => (
              <option key={tier} value={tier}>
                {TIER_LABEL[tier]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-ext`}>{t('form.extensions')}</label>
          <input id={`${id}-ext`} type="text" value={ext} placeholder={t('form.extensionsExample')} onChange={(e) => setExt(e.target.value)} />
        </div>
        <fieldset className="watch__then">
          <legend>{t('form.then')}</legend>
          {/* Steps by their names in the window's language, chosen from lists (the command line's text:summary is its own). */}
          <StepsEditor first={capability} steps={then} onChange={setThen} />
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-key`}>{t('form.key')}</label>
          <input id={`${id}-key`} type="text" value={key} placeholder={t('form.keyExample')} onChange={(e) => setKey(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-budget`}>{t('form.budgetOptional')}</label>
          <input
            id={`${id}-budget`}
            type="text"
            inputMode="decimal"
            value={budget}
            placeholder={t('form.budgetExample')}
            onChange={(e) => setBudget(e.target.value)}
          />
        </div>
        <fieldset className="watch__privacy">
          <legend>{t('form.privacy')}</legend>
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
              <label htmlFor={`${id}-originals`}>{t('form.deleteOriginals')}</label>
            </div>
            <span id={`${id}-originals-warning`} className={deleteOriginals ? 'field-error' : 'field-hint'}>
              <Trans t={t} i18nKey={privacy.keepFilesDays ? 'form.deleteWarningDays' : 'form.deleteWarning'} components={[<strong key="warning" />]} />
            </span>
          </div>
        </fieldset>
        <div className="watch__submit">
          <button type="submit" className="primary" disabled={add.busy || dir.trim() === ''}>
            {t('form.submit')}
          </button>
        </div>
      </form>
      <ErrorAlert message={add.error} />
    </section>
  );
}

type WatchFile = WatchView['problems'][number];

/** One judged file in the window's words; a file changed after it was sent offers to send its new version. */
function WatchFileLine({ file, dir, busy, onResend }: { file: WatchFile; dir: string; busy: boolean; onResend: (f: WatchFile) => void }) {
  const { t } = useTranslation('watch');
  const name = nameInFolder(file.path, dir);
  const line = file.note === null ? null : watchNoteLine(file.note, name);
  return (
    <li>
      {/* Stored without a code (an older version's words): shown as stored, in English. */}
      {line ?? <span lang="en">{file.message ?? file.path}</span>}
      {file.note?.code === 'changed_after_sent' ? (
        <>
          {' '}
          <button type="button" className="link-like" disabled={busy} onClick={() => onResend(file)}>
            {t('note.resend')}
            <span className="visually-hidden"> {name}</span>
          </button>
        </>
      ) : null}
    </li>
  );
}

/** The summary of a folder's problems, counted by what happened to each file. */
function tallyWords(tally: ProblemTally, t: TFunction<'watch'>): string[] {
  const parts: [number, 'row.setAside' | 'row.leftInPlace' | 'row.changed' | 'row.otherProblems'][] = [
    [tally.setAside, 'row.setAside'],
    [tally.leftInPlace, 'row.leftInPlace'],
    [tally.changed, 'row.changed'],
    [tally.other, 'row.otherProblems'],
  ];
  return parts.filter(([n]) => n > 0).map(([n, key]) => t(key, { count: n, n: formatCount(n) }));
}

function WatchRow({ w, onRemove, onResend, busy }: { w: WatchView; onRemove: () => void; onResend: (f: WatchFile) => void; busy: boolean }) {
  const { t } = useTranslation('watch');
  return (
    <tr data-testid="watch-row">
      <th scope="row" className="mono watch__folder">
        {w.dir}
      </th>
      <td>
        {/* The capability and its steps by their names in the window's language, not the command line's ids. */}
        {[capabilityWords(w.capability).label, ...w.then.map(stepWords)].join(' → ')}
        <div className="muted">
          {[
            TIER_LABEL[w.tier],
            ...(w.extensions ? [w.extensions.join(', ')] : []),
            ...(w.key ? [t('row.key', { key: w.key })] : []),
            ...(w.budgetPerDay !== null ? [t('row.budget', { amount: formatMoney(w.budgetPerDay) })] : []),
          ].join(' · ')}
        </div>
        {privacyLine(w).length > 0 ? (
          <div className="muted" data-testid="watch-privacy">
            {privacyLine(w).join(' · ')}
          </div>
        ) : null}
      </td>
      <td className="tabular" data-testid="watch-today">
        {w.todayBatch ? (
          <a href={`#/batches/${encodeURIComponent(w.todayBatch)}`}>{t('row.files', { count: w.takenToday, n: formatCount(w.takenToday) })}</a>
        ) : (
          t('row.files', { count: w.takenToday, n: formatCount(w.takenToday) })
        )}
      </td>
      <td data-testid="watch-last">
        {w.lastFile ? (
          <>
            <span className="mono">{nameInFolder(w.lastFile.path, w.dir)}</span>
            <div className="muted">{formatDateTime(w.lastFile.at)}</div>
          </>
        ) : (
          <span className="muted">{t('row.noneYet')}</span>
        )}
      </td>
      <td data-testid="watch-problems">
        <WaitingFiles files={w.waiting} dir={w.dir} />
        {w.problems.length === 0 && w.skipped.length === 0 ? (
          w.waiting.length === 0 ? (
            <span className="muted">{t('row.none')}</span>
          ) : null
        ) : (
          <details>
            <summary>
              {[
                ...tallyWords(problemTally(w.problems), t),
                ...(w.skipped.length > 0 ? [t('row.skipped', { count: w.skipped.length, n: formatCount(w.skipped.length) })] : []),
              ].join(', ')}
            </summary>
            <ul className="watch__problems">
              {[...w.problems, ...w.skipped].map((p) => (
                <WatchFileLine key={`${p.path}:${p.at}`} file={p} dir={w.dir} busy={busy} onResend={onResend} />
              ))}
            </ul>
          </details>
        )}
      </td>
      <td>
        <button type="button" className="link-like" onClick={onRemove} disabled={busy}>
          {t('row.remove')}
          <span className="visually-hidden"> {w.dir}</span>
        </button>
      </td>
    </tr>
  );
}

export function WatchFoldersScreen() {
  const { t } = useTranslation('watch');
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
      setNote(t('removed', { dir: w.dir }));
      reload();
    });

  const resend = (w: WatchView, f: WatchFile) =>
    change.run(async () => {
      const name = nameInFolder(f.path, w.dir);
      const r = await client().call('watch.resend', { path: f.path });
      if (r.taken) setNote(t('note.resent', { name, batch: r.batchId ?? '?', seq: formatCount(r.seq ?? 0) }));
      else throw new Error(t('note.notResent', { name, why: (r.note && watchNoteLine(r.note, name)) ?? '' }));
      reload();
    });

  return (
    <div className="screen watch stack">
      <h1>{t('title')}</h1>
      <p className="muted">
        <Trans t={t} i18nKey="intro" components={[<code key="aside" />]} />
      </p>
      <AddWatchForm
        onAdded={(w) => {
          setNote(t('added', { dir: w.dir }));
          reload();
        }}
      />
      <StatusNote message={note} />
      <ErrorAlert message={load.error ?? change.error} />
      <section className="card stack" aria-labelledby="watch-list-h">
        <h2 id="watch-list-h">{t('list.heading')}</h2>
        {list === null ? null : list.length === 0 ? (
          <p className="muted">{t('list.none')}</p>
        ) : (
          <div className="table-wrap">
            <table className="watch__table">
              <caption className="visually-hidden">{t('list.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('list.folder')}</th>
                  <th scope="col">{t('list.eachFile')}</th>
                  <th scope="col">{t('list.today')}</th>
                  <th scope="col">{t('list.lastFile')}</th>
                  <th scope="col">{t('list.problems')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('list.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((w) => (
                  <WatchRow key={w.id} w={w} busy={change.busy} onRemove={() => setRemoving(w)} onResend={(f) => void resend(w, f)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={t('stop.title', { dir: removing?.dir ?? '' })}
        confirmLabel={t('stop.confirm')}
        dismissLabel={t('stop.dismiss')}
        onDismiss={() => setRemoving(null)}
        onConfirm={() => {
          const w = removing;
          setRemoving(null);
          if (w) void remove(w);
        }}
      >
        <p>{t('stop.body')}</p>
      </ConfirmDialog>
    </div>
  );
}
