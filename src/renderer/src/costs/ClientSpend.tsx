// Costs by client for a month (or all time): a chart, a table, and for each client its monthly
// statement (a printable page) and the same as CSV.
import { useEffect, useId, useState } from 'react';
import { NO_CLIENT_LABEL, monthRange, spendCsv, type SpendReport } from '../../../shared/spend';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { hrefFor } from '../routing/route';
import { ClientSpendChart } from './ClientSpendChart';
import { downloadText, safeFilePart } from './download-text';

export function thisMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** A month as words ("November 2026"). */
export function monthWords(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, 1).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
}

export async function downloadStatement(month: string, clientName: string | null): Promise<void> {
  const range = monthRange(month);
  if (!range) throw new Error(`"${month}" is not a month.`);
  const report = await client().call('costs.spend', { by: 'batch', ...range, client: clientName });
  downloadText(`statement-${safeFilePart(clientName ?? NO_CLIENT_LABEL)}-${month}.csv`, spendCsv(report));
}

export function ClientSpend({ refreshKey }: { refreshKey: string }) {
  const ids = { month: useId(), all: useId() };
  const load = useAction();
  const download = useAction();
  const [month, setMonth] = useState(thisMonth());
  const [allTime, setAllTime] = useState(false);
  const [report, setReport] = useState<SpendReport | null>(null);
  const { run } = load;
  const range = allTime ? null : monthRange(month);
  const from = range?.from ?? null;
  const to = range?.to ?? null;
  useEffect(() => {
    if (!allTime && from === null) return;
    void run(async () => setReport(await client().call('costs.spend', { by: 'client', from, to })));
  }, [from, to, allTime, refreshKey, run]);
  const period = allTime ? 'all time' : monthWords(month);

  return (
    <section className="card stack" aria-labelledby="costs-client">
      <div className="costs__client-head">
        <h2 id="costs-client">By client</h2>
        <div className="costs__period">
          <label htmlFor={ids.month}>Month</label>
          <input id={ids.month} type="month" value={month} disabled={allTime} onChange={(e) => e.target.value && setMonth(e.target.value)} />
          <label className="costs__all">
            <input id={ids.all} type="checkbox" checked={allTime} onChange={(e) => setAllTime(e.target.checked)} />
            All time
          </label>
        </div>
      </div>
      <ErrorAlert message={load.error ?? download.error} />
      {report === null ? null : (
        <>
          <ClientSpendChart rows={report.rows} period={period} />
          {report.rows.length === 0 ? (
            <p className="muted">Nothing was spent in {period}.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Spend by client, {period}</caption>
                <thead>
                  <tr>
                    <th scope="col">Client</th>
                    <th scope="col" className="num">
                      Batches
                    </th>
                    <th scope="col" className="num">
                      Items
                    </th>
                    <th scope="col" className="num">
                      Spent
                    </th>
                    <th scope="col">{allTime ? <span className="visually-hidden">Statement</span> : `Statement for ${monthWords(month)}`}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.rows.map((r) => {
                    const who = r.group === '' ? null : r.group;
                    return (
                      <tr key={r.group}>
                        <th scope="row">{r.label}</th>
                        <td className="num">{formatCount(r.batches)}</td>
                        <td className="num">{formatCount(r.items)}</td>
                        <td className="num">{formatMoney(r.cost)}</td>
                        <td>
                          {allTime ? (
                            <span className="muted">pick a month</span>
                          ) : (
                            <div className="costs__statement-actions">
                              <a
                                href={hrefFor({ name: 'statement', month, client: who })}
                                aria-label={`Statement of ${r.label} for ${monthWords(month)} (printable)`}
                              >
                                Statement
                              </a>
                              <button
                                type="button"
                                disabled={download.busy}
                                aria-label={`Download the statement of ${r.label} for ${monthWords(month)} as CSV`}
                                onClick={() => void download.run(() => downloadStatement(month, who))}
                              >
                                CSV
                              </button>
                            </div>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td className="num">{formatCount(report.rows.reduce((n, r) => n + r.batches, 0))}</td>
                    <td className="num">{formatCount(report.items)}</td>
                    <td className="num">{formatMoney(report.total)}</td>
                    <td />
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
          <p className="field-hint">
            A batch is billed to the client of the key it was created for (Keys &amp; rates). Spend counts on the day each item finished.
          </p>
        </>
      )}
    </section>
  );
}
