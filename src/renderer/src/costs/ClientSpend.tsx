// Costs by client for a month (or all time): a chart, a table, and for each client its monthly
// statement (a printable page) and the same as CSV.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_CLIENT_LABEL, monthRange, spendCsv, type SpendReport } from '../../../shared/spend';
import { clientWords } from './spend-words';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { t } from '../i18n';
import { hrefFor } from '../routing/route';
import { ClientSpendChart } from './ClientSpendChart';
import { downloadText, safeFilePart } from './download-text';
import { monthWords } from './period-words';

export function thisMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

export async function downloadStatement(month: string, clientName: string | null): Promise<void> {
  const range = monthRange(month);
  if (!range) throw new Error(t('costs:notAMonth', { month }));
  const report = await client().call('costs.spend', { by: 'batch', ...range, client: clientName });
  downloadText(`statement-${safeFilePart(clientName ?? NO_CLIENT_LABEL)}-${month}.csv`, spendCsv(report));
}

export function ClientSpend({ refreshKey }: { refreshKey: string }) {
  const { t } = useTranslation('costs');
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
  const period = allTime ? t('allTimePeriod') : monthWords(month);

  return (
    <section className="card stack" aria-labelledby="costs-client">
      <div className="costs__client-head">
        <h2 id="costs-client">{t('byClient')}</h2>
        <div className="costs__period">
          <label htmlFor={ids.month}>{t('month')}</label>
          <input id={ids.month} type="month" value={month} disabled={allTime} onChange={(e) => e.target.value && setMonth(e.target.value)} />
          <label className="costs__all">
            <input id={ids.all} type="checkbox" checked={allTime} onChange={(e) => setAllTime(e.target.checked)} />
            {t('allTime')}
          </label>
        </div>
      </div>
      <ErrorAlert message={load.error ?? download.error} />
      {report === null ? null : (
        <>
          <ClientSpendChart rows={report.rows} period={period} />
          {report.rows.length === 0 ? (
            <p className="muted">{allTime ? t('nothingSpentAllTime') : t('nothingSpent', { period })}</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">{t('byClientCaption', { period })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('col.client')}</th>
                    <th scope="col" className="num">
                      {t('col.batches')}
                    </th>
                    <th scope="col" className="num">
                      {t('col.items')}
                    </th>
                    <th scope="col" className="num">
                      {t('col.spent')}
                    </th>
                    <th scope="col">
                      {allTime ? <span className="visually-hidden">{t('col.statement')}</span> : t('statementFor', { month: monthWords(month) })}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.rows.map((r) => {
                    const who = r.group === '' ? null : r.group;
                    return (
                      <tr key={r.group}>
                        <th scope="row">{clientWords(r.group)}</th>
                        <td className="num">{formatCount(r.batches)}</td>
                        <td className="num">{formatCount(r.items)}</td>
                        <td className="num">{formatMoney(r.cost)}</td>
                        <td>
                          {allTime ? (
                            <span className="muted">{t('pickMonth')}</span>
                          ) : (
                            <div className="costs__statement-actions">
                              <a
                                href={hrefFor({ name: 'statement', month, client: who })}
                                aria-label={t('statementAria', { client: clientWords(r.group), month: monthWords(month) })}
                              >
                                {t('statement')}
                              </a>
                              <button
                                type="button"
                                disabled={download.busy}
                                aria-label={t('statementCsvAria', { client: clientWords(r.group), month: monthWords(month) })}
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
                    <th scope="row">{t('total')}</th>
                    <td className="num">{formatCount(report.rows.reduce((n, r) => n + r.batches, 0))}</td>
                    <td className="num">{formatCount(report.items)}</td>
                    <td className="num">{formatMoney(report.total)}</td>
                    <td />
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
          <p className="field-hint">{t('billingHint')}</p>
        </>
      )}
    </section>
  );
}
