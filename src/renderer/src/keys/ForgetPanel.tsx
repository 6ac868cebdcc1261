// Forget a person in the window, as `batchdesk forget` does: first where they are (a dry run),
// then, confirmed, taken out. The report names places, never the value.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ForgetView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

export function ForgetPanel() {
  const { t } = useTranslation('keys');
  const [value, setValue] = useState('');
  const [country, setCountry] = useState('');
  const [report, setReport] = useState<ForgetView | null>(null);
  const act = useAction();
  const valueId = useId();
  const countryId = useId();

  const forget = (dryRun: boolean) =>
    act.run(async () => {
      setReport(null);
      const c = country.trim();
      setReport(await client().call('privacy.forget', { value, dryRun, ...(c === '' ? {} : { country: c }) }));
      if (!dryRun) setValue('');
    });

  return (
    <section className="card stack" aria-labelledby="forget-heading">
      <h2 id="forget-heading">{t('forget.heading')}</h2>
      <p className="muted">{t('forget.intro')}</p>
      <form
        className="optouts__add"
        onSubmit={(e) => {
          e.preventDefault();
          void forget(true);
        }}
      >
        <div className="field">
          <label htmlFor={valueId}>{t('forget.value')}</label>
          <input id={valueId} type="text" value={value} autoComplete="off" onChange={(e) => setValue(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={countryId}>{t('forget.country')}</label>
          <input id={countryId} type="text" value={country} maxLength={2} placeholder="DE" onChange={(e) => setCountry(e.target.value)} />
        </div>
        <button type="submit" disabled={act.busy || value.trim().length < 3}>
          {t('forget.find')}
        </button>
      </form>
      <ErrorAlert message={act.error} />
      {report === null ? null : <ForgetReport report={report} onForget={() => void forget(false)} busy={act.busy} />}
    </section>
  );
}

function ForgetReport({ report, onForget, busy }: { report: ForgetView; onForget: () => void; busy: boolean }) {
  const { t } = useTranslation('keys');
  const places = Object.entries(report.replaced);
  const found = places.length > 0 || report.optOutKeptAsHash || report.filesRewritten.length > 0 || report.filesDeleted.length > 0;
  if (!found) return <p role="status">{t('forget.notFound')}</p>;
  return (
    <div role="status" className="stack">
      <p>{report.dryRun ? t('forget.found', { count: report.jobs }) : t('forget.forgotten', { count: report.jobs })}</p>
      <ul>
        {places.map(([place, n]) => (
          <li key={place}>
            <span className="mono">{place}</span>: {report.dryRun ? t('forget.placesToReplace', { count: n }) : t('forget.placesReplaced', { count: n })}
          </li>
        ))}
        {report.filesRewritten.map((f) => (
          <li key={f}>
            <span className="mono">{f}</span>: {report.dryRun ? t('forget.toRewrite') : t('forget.rewritten')}
          </li>
        ))}
        {report.filesDeleted.map((f) => (
          <li key={f}>
            <span className="mono">{f}</span>: {report.dryRun ? t('forget.toDelete') : t('forget.deleted')}
          </li>
        ))}
        {report.optOutKeptAsHash ? <li>{report.dryRun ? t('forget.optOutToKeep') : t('forget.optOutKept')}</li> : null}
        {!report.dryRun && report.embeddings > 0 ? <li>{t('forget.embeddings', { count: report.embeddings })}</li> : null}
        {!report.dryRun && report.cancelled > 0 ? <li>{t('forget.cancelled', { count: report.cancelled })}</li> : null}
        {report.notDone.map((n) => (
          <li key={n}>{t('forget.notDone', { reason: n })}</li>
        ))}
      </ul>
      {report.dryRun ? (
        <button type="button" className="danger" disabled={busy} onClick={onForget}>
          {t('forget.confirm')}
        </button>
      ) : null}
    </div>
  );
}
