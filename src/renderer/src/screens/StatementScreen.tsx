// #/costs/statement/<month>[/<client>]: a client's monthly statement, one line per batch, laid out
// to print (Print saves it as PDF in the print dialog) and downloadable as CSV.
import { useEffect, useState } from 'react';
import { NO_CLIENT_LABEL, monthRange, type SpendReport } from '../../../shared/spend';
import { describe } from '../../../shared/capabilities/catalog';
import { BATCH_CAPABILITIES, type BatchCapability } from '../../../shared/domain';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatMoney } from '../format/money';
import { formatCount, formatDateTime } from '../format/time';
import { hrefFor } from '../routing/route';
import { useBatchesStore } from '../store/batches-store';
import { downloadStatement, monthWords } from '../costs/ClientSpend';
import '../costs/statement.css';

function capabilityOf(id: string, byId: Record<string, { capability: BatchCapability } | undefined>): string {
  const c = byId[id]?.capability;
  return c && (BATCH_CAPABILITIES as readonly string[]).includes(c) ? describe(c).label : '';
}

export function StatementScreen({ month, client: clientName }: { month: string; client: string | null }) {
  const load = useAction();
  const download = useAction();
  const [report, setReport] = useState<SpendReport | null>(null);
  const [made] = useState(() => new Date().toISOString());
  const byId = useBatchesStore((s) => s.byId);
  const range = monthRange(month);
  const { run } = load;
  const from = range?.from ?? null;
  const to = range?.to ?? null;
  useEffect(() => {
    if (from === null) return;
    void run(async () => setReport(await client().call('costs.spend', { by: 'batch', from, to, client: clientName })));
  }, [from, to, clientName, run]);
  const who = clientName ?? NO_CLIENT_LABEL;

  return (
    <div className="screen statement">
      <div className="statement__actions no-print">
        <a href={hrefFor({ name: 'costs' })}>← Costs</a>
        <button type="button" className="primary" onClick={() => window.print()} disabled={report === null}>
          Print or save as PDF
        </button>
        <button type="button" onClick={() => void download.run(() => downloadStatement(month, clientName))} disabled={download.busy}>
          Download CSV
        </button>
      </div>
      <ErrorAlert message={range === null ? `"${month}" is not a month (YYYY-MM).` : (load.error ?? download.error)} />
      <article className="statement__page" aria-labelledby="statement-title">
        <header className="statement__head">
          <div>
            <p className="statement__kind">Statement of usage</p>
            <h1 id="statement-title">{who}</h1>
            <p>
              {monthWords(month)} ({range?.from} to {range?.to})
            </p>
          </div>
          <dl className="statement__facts">
            <div>
              <dt>Prepared</dt>
              <dd>{formatDateTime(made)}</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd className="statement__total">{report ? formatMoney(report.total) : '…'}</dd>
            </div>
          </dl>
        </header>
        {report === null ? (
          <p className="muted">Loading…</p>
        ) : report.rows.length === 0 ? (
          <p>
            No usage was billed to {who} in {monthWords(month)}.
          </p>
        ) : (
          <table className="statement__table">
            <caption className="visually-hidden">
              Usage of {who} in {monthWords(month)}, one line per batch
            </caption>
            <thead>
              <tr>
                <th scope="col">Batch</th>
                <th scope="col">Work</th>
                <th scope="col">Days</th>
                <th scope="col" className="num">
                  Items
                </th>
                <th scope="col" className="num">
                  Units
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((r) => (
                <tr key={r.group}>
                  <th scope="row">
                    {r.label}
                    <span className="statement__id">{r.group}</span>
                  </th>
                  <td>{capabilityOf(r.group, byId)}</td>
                  <td className="statement__days">{r.first === r.last ? r.first : `${r.first} – ${r.last}`}</td>
                  <td className="num">{formatCount(r.items)}</td>
                  <td className="num">{r.units === null ? '' : `${formatCount(r.units)} ${r.unit ?? ''}`}</td>
                  <td className="num">{formatMoney(r.cost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td className="num">{formatCount(report.items)}</td>
                <td />
                <td className="num">{formatMoney(report.total)}</td>
              </tr>
            </tfoot>
          </table>
        )}
        <p className="statement__note">
          Amounts in EUR, as charged by the API for the items that succeeded (amounts under €1 are shown with four decimals; the CSV has every amount to
          1/10,000 EUR). Items count on the day they finished.
        </p>
      </article>
    </div>
  );
}
