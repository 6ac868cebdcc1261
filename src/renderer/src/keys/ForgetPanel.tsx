// Forget a person in the window, as `batchdesk forget` does: first where they are (a dry run),
// then, confirmed, taken out. The report names places, never the value.
import { useId, useState } from 'react';
import type { ForgetView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

export function ForgetPanel() {
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
      <h2 id="forget-heading">Forget a person</h2>
      <p className="muted">
        Takes a phone number, an e-mail address or a name out of every job, result, search entry, embedding and export in this data folder. If they opted out,
        they stay opted out (kept as a one-way hash). Recordings and scans themselves are not searched.
      </p>
      <form
        className="optouts__add"
        onSubmit={(e) => {
          e.preventDefault();
          void forget(true);
        }}
      >
        <div className="field">
          <label htmlFor={valueId}>Phone number, e-mail address or name</label>
          <input id={valueId} type="text" value={value} autoComplete="off" onChange={(e) => setValue(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={countryId}>Country of a number without +code (optional)</label>
          <input id={countryId} type="text" value={country} maxLength={2} placeholder="DE" onChange={(e) => setCountry(e.target.value)} />
        </div>
        <button type="submit" disabled={act.busy || value.trim().length < 3}>
          Find
        </button>
      </form>
      <ErrorAlert message={act.error} />
      {report === null ? null : <ForgetReport report={report} onForget={() => void forget(false)} busy={act.busy} />}
    </section>
  );
}

function ForgetReport({ report, onForget, busy }: { report: ForgetView; onForget: () => void; busy: boolean }) {
  const places = Object.entries(report.replaced);
  const found = places.length > 0 || report.optOutKeptAsHash || report.filesRewritten.length > 0 || report.filesDeleted.length > 0;
  if (!found) return <p role="status">Not found in this data folder: nothing to forget.</p>;
  return (
    <div role="status" className="stack">
      <p>{report.dryRun ? `Found in ${report.jobs} job(s):` : `Forgotten: ${report.jobs} job(s) scrubbed.`}</p>
      <ul>
        {places.map(([place, n]) => (
          <li key={place}>
            <span className="mono">{place}</span>: {n} place(s) {report.dryRun ? 'to replace' : 'replaced by [FORGOTTEN]'}
          </li>
        ))}
        {report.filesRewritten.map((f) => (
          <li key={f}>
            <span className="mono">{f}</span>: {report.dryRun ? 'to rewrite' : 'rewritten'}
          </li>
        ))}
        {report.filesDeleted.map((f) => (
          <li key={f}>
            <span className="mono">{f}</span>: {report.dryRun ? 'to delete' : 'deleted'}
          </li>
        ))}
        {report.optOutKeptAsHash ? <li>Opt-out entry {report.dryRun ? 'to keep' : 'kept'} as a one-way hash: still never messaged.</li> : null}
        {!report.dryRun && report.embeddings > 0 ? <li>{report.embeddings} embedding(s) deleted.</li> : null}
        {!report.dryRun && report.cancelled > 0 ? <li>{report.cancelled} job(s) not sent yet cancelled.</li> : null}
        {report.notDone.map((n) => (
          <li key={n}>Not done: {n}</li>
        ))}
      </ul>
      {report.dryRun ? (
        <button type="button" className="danger" disabled={busy} onClick={onForget}>
          Forget them everywhere
        </button>
      ) : null}
    </div>
  );
}
