// The retention log in the window, as `batchdesk retention log` prints it: every deletion the
// retention rules made (what, when, by which rule), newest first, and the data folder's default rule.
import { useCallback, useEffect, useState } from 'react';
import type { RetentionLogEntryView, RetentionLogView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatDateTime } from '../format/time';

const KIND_WORDS: Record<RetentionLogEntryView['kind'], string> = {
  output: 'Output',
  upload: 'Uploaded copy',
  original: 'Original (watched folder)',
  export: 'Export',
  result: 'Result text',
};

const days = (n: number | null, what: string) => (n === null ? `${what} are kept` : `${what} go after ${n} days`);

export function RetentionLogPanel() {
  const [log, setLog] = useState<RetentionLogView | null>(null);
  const load = useAction();
  const { run } = load;
  const reload = useCallback(() => void run(async () => setLog(await client().call('retention.log', { limit: 200 }))), [run]);
  useEffect(reload, [reload]);

  return (
    <section className="card stack" aria-labelledby="retention-heading">
      <h2 id="retention-heading">Retention log</h2>
      <p className="muted">
        What Batchdesk deleted by a retention rule (a batch&apos;s, a watched folder&apos;s or the default), when and by which rule. Your own files are deleted
        only in a watched folder set to &quot;Delete originals after success&quot;. <code>batchdesk retention run --dry-run</code> shows what would go next.
      </p>
      {log ? (
        <p data-testid="retention-default">
          Default rule: {days(log.defaults.keepFilesDays, 'files Batchdesk wrote')}; {days(log.defaults.keepResultsDays, 'result texts')} (
          <code>batchdesk config set keep_files_days N</code>, <code>keep_results_days N</code>).
        </p>
      ) : null}
      <ErrorAlert message={load.error} />
      {log === null ? null : log.entries.length === 0 ? (
        <p className="muted">Retention has deleted nothing in this data folder yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Deletions by retention, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Rule</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((e) => (
                <tr key={`${e.at}:${e.kind}:${e.what}`}>
                  <td className="tabular">{formatDateTime(e.at)}</td>
                  <td>
                    {KIND_WORDS[e.kind]}: <span className="mono">{e.what}</span>
                  </td>
                  <td>{e.rule}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div>
        <button type="button" onClick={reload} disabled={load.busy}>
          Refresh
        </button>
      </div>
    </section>
  );
}
