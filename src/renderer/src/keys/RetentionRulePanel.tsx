// The default retention rule in the window, as `config set keep_files_days N` / `keep_results_days N`
// and `retention run [--dry-run]` do it: the two periods (empty: kept) with Save, "Show what would
// be deleted" (what, size, rule) and "Delete now" behind a confirmation; each deletion is logged.
import { retentionRuleWords } from './retention-rule-words';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RetentionDefaultsView, RetentionRunView } from '../../../shared/contract';
import { KEEP_DAYS_MAX, KeepDays, daysFromText } from '../../../shared/retention-rules';
import { client } from '../client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatCount } from '../format/time';
import { formatBytes } from '../results/local-numbers';
import { RETENTION_KIND_KEYS } from './retention-kind-words';

interface Draft {
  files: string;
  results: string;
}

const toDraft = (d: RetentionDefaultsView): Draft => ({
  files: d.keepFilesDays === null ? '' : String(d.keepFilesDays),
  results: d.keepResultsDays === null ? '' : String(d.keepResultsDays),
});

/** Empty: kept (null); else days by the shared rule; undefined: not a period. */
function days(text: string): number | null | undefined {
  if (text.trim() === '' || daysFromText(text) === 0) return null;
  const r = KeepDays.safeParse(daysFromText(text));
  return r.success ? r.data : undefined;
}

export function RetentionRulePanel({ onDeleted }: { onDeleted(): void }) {
  const { t } = useTranslation('keys');
  const id = useId();
  const load = useAction();
  const save = useAction();
  const run = useAction();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [listed, setListed] = useState<RetentionRunView | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    void load.run(async () => setDraft(toDraft((await client().call('retention.log', { limit: 1 })).defaults)));
  }, [load.run]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setNote(null);
    const files = days(draft.files);
    const results = days(draft.results);
    if (files === undefined || results === undefined) {
      save.setError(t('retentionRule.badDays', { field: files === undefined ? t('retentionRule.files') : t('retentionRule.results'), max: KEEP_DAYS_MAX }));
      return;
    }
    void save.run(async () => {
      const saved = await client().call('retention.setDefaults', { keepFilesDays: files, keepResultsDays: results });
      setDraft(toDraft(saved));
      setListed(null);
      setNote(t('retentionRule.saved'));
      onDeleted();
    });
  };

  const list = (dryRun: boolean) =>
    run.run(async () => {
      setNote(null);
      const r = await client().call('retention.run', { dryRun });
      setListed(r);
      // Said once, by the run's own status line (no toast beside it).
      if (!dryRun) onDeleted();
    });

  const field = (key: keyof Draft, label: string) =>
    draft ? (
      <div className="field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          id={`${id}-${key}`}
          type="text"
          inputMode="numeric"
          value={draft[key]}
          placeholder={t('retentionRule.kept')}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        />
      </div>
    ) : null;

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('retentionRule.heading')}</h2>
      <p className="muted" id={`${id}-hint`}>
        {t('retentionRule.intro')}
      </p>
      <ErrorAlert message={load.error} />
      {draft ? (
        <form onSubmit={submit} className="stack" aria-label={t('retentionRule.heading')}>
          <div className="keys__settings-grid">
            {field('files', t('retentionRule.files'))}
            {field('results', t('retentionRule.results'))}
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={save.busy}>
              {t('retentionRule.save')}
            </button>
            <button type="button" onClick={() => void list(true)} disabled={run.busy}>
              {t('retentionRule.show')}
            </button>
          </div>
          <ErrorAlert message={save.error ?? run.error} />
          <StatusNote message={note} />
        </form>
      ) : null}
      {listed ? <RunReport listed={listed} busy={run.busy} onDelete={() => setConfirming(true)} /> : null}
      <ConfirmDialog
        open={confirming}
        title={t('retentionRule.confirmTitle', { count: listed?.count ?? 0, n: formatCount(listed?.count ?? 0) })}
        confirmLabel={t('retentionRule.confirm')}
        dismissLabel={t('retentionRule.dismiss')}
        onDismiss={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void list(false);
        }}
      >
        <p>{t('retentionRule.confirmBody')}</p>
      </ConfirmDialog>
    </section>
  );
}

function RunReport({ listed, busy, onDelete }: { listed: RetentionRunView; busy: boolean; onDelete(): void }) {
  const { t } = useTranslation('keys');
  const summary = listed.dryRun
    ? listed.count === 0
      ? t('retentionRule.nothingDue')
      : t('retentionRule.wouldGo', { count: listed.count, n: formatCount(listed.count), size: formatBytes(listed.bytes) })
    : t('retentionRule.deleted', { count: listed.count, n: formatCount(listed.count), size: formatBytes(listed.bytes) });
  return (
    <div className="stack" data-testid="retention-run">
      <p role="status">{summary}</p>
      {listed.items.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{listed.dryRun ? t('retentionRule.captionDry') : t('retentionRule.captionDone')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('retention.what')}</th>
                <th scope="col" className="num">
                  {t('retentionRule.size')}
                </th>
                <th scope="col">{t('retention.rule')}</th>
              </tr>
            </thead>
            <tbody>
              {listed.items.map((i) => (
                <tr key={`${i.kind}:${i.what}`}>
                  <td>
                    {t(RETENTION_KIND_KEYS[i.kind])}: <span className="mono">{i.what}</span>
                  </td>
                  <td className="num tabular">{i.size === null ? t('retentionRule.noSize') : formatBytes(i.size)}</td>
                  <td>{retentionRuleWords(i)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {listed.count > listed.items.length ? <p className="muted">{t('retentionRule.more', { n: formatCount(listed.count - listed.items.length) })}</p> : null}
      {listed.problems.map((p) => (
        <p role="alert" className="error-alert" key={p.what}>
          {t('retentionRule.problem', { what: p.what, reason: p.reason })}
        </p>
      ))}
      {listed.dryRun && listed.count > 0 ? (
        <div className="row">
          <button type="button" className="danger-solid" onClick={onDelete} disabled={busy}>
            {t('retentionRule.deleteNow')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
