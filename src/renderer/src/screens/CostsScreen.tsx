// #/costs: spend by client for a month (chart, table, statements), by day (chart and table), by
// batch (spent against estimate), by key; totals.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostReport } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { SpendChart } from '../costs/SpendChart';
import { ClientSpend } from '../costs/ClientSpend';
import { dayWords, percentWords } from '../costs/period-words';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { hrefFor } from '../routing/route';
import { batchVersion, useBatchesStore } from '../store/batches-store';
import '../costs/costs.css';

export function CostsScreen() {
  const { t } = useTranslation('costs');
  const load = useAction();
  const [report, setReport] = useState<CostReport | null>(null);
  // Spend moves while batches run: re-read the report when any batch changes (at most every 2 s).
  const lastUpdate = useBatchesStore((s) => Object.values(s.byId).map(batchVersion).join(';'));
  const { run } = load;
  const lastFetch = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, lastFetch.current + 2_000 - Date.now());
    const timer = window.setTimeout(() => {
      lastFetch.current = Date.now();
      void run(async () => setReport(await client().call('costs.report', {})));
    }, wait);
    return () => window.clearTimeout(timer);
  }, [lastUpdate, run]);

  const estimatedTotal = report?.byBatch.reduce((s, b) => s + b.estimated, 0) ?? 0;
  return (
    <div className="screen costs">
      <div className="screen__head">
        <h1>{t('title')}</h1>
      </div>
      <ErrorAlert message={load.error} />
      {!report ? (
        load.busy ? (
          <p className="muted">{t('loading')}</p>
        ) : null
      ) : (
        <>
          <dl className="costs__totals card">
            <div>
              <dt>{t('spentTotal')}</dt>
              <dd>{formatMoney(report.total)}</dd>
            </div>
            <div>
              <dt>{t('estimatedTotal')}</dt>
              <dd>{formatMoney(estimatedTotal)}</dd>
            </div>
            <div>
              <dt>{t('itemsBilled')}</dt>
              <dd>{formatCount(report.byDay.reduce((s, d) => s + d.items, 0))}</dd>
            </div>
          </dl>

          <ClientSpend refreshKey={String(report.total)} />

          <section className="card stack" aria-labelledby="costs-day">
            <h2 id="costs-day">{t('byDay')}</h2>
            <SpendChart byDay={report.byDay} />
            {report.byDay.length > 0 ? (
              <div className="table-wrap costs__table" tabIndex={0} role="region" aria-label={t('byDayTable')}>
                <table>
                  <caption className="visually-hidden">{t('byDay')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('col.day')}</th>
                      <th scope="col" className="num">
                        {t('col.items')}
                      </th>
                      <th scope="col" className="num">
                        {t('col.spent')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...report.byDay].reverse().map((d) => (
                      <tr key={d.day}>
                        <th scope="row">{dayWords(d.day)}</th>
                        <td className="num">{formatCount(d.items)}</td>
                        <td className="num">{formatMoney(d.cost)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </section>

          <div className="costs__pair">
            <section className="card stack" aria-labelledby="costs-batch">
              <h2 id="costs-batch">{t('byBatch')}</h2>
              {report.byBatch.length === 0 ? (
                <p className="muted">{t('noBatches')}</p>
              ) : (
                <div className="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{t('col.batch')}</th>
                        <th scope="col" className="num">
                          {t('col.spent')}
                        </th>
                        <th scope="col" className="num">
                          {t('col.estimate')}
                        </th>
                        <th scope="col" className="num">
                          {t('col.ofEstimate')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.byBatch.map((b) => (
                        <tr key={b.batchId}>
                          <th scope="row">
                            <a href={hrefFor({ name: 'batch', id: b.batchId, jobId: null })}>{b.name}</a>
                          </th>
                          <td className="num">{formatMoney(b.cost)}</td>
                          <td className="num">{formatMoney(b.estimated)}</td>
                          <td className="num">{b.estimated > 0 ? percentWords(b.cost, b.estimated) : '—'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>

            <section className="card stack" aria-labelledby="costs-key">
              <h2 id="costs-key">{t('byKey')}</h2>
              {report.byKey.length === 0 ? (
                <p className="muted">{t('noKeySpend')}</p>
              ) : (
                <div className="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{t('col.key')}</th>
                        <th scope="col" className="num">
                          {t('col.items')}
                        </th>
                        <th scope="col" className="num">
                          {t('col.spent')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.byKey.map((k) => (
                        <tr key={k.key}>
                          <th scope="row">{k.key}</th>
                          <td className="num">{formatCount(k.items)}</td>
                          <td className="num">{formatMoney(k.cost)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </div>
        </>
      )}
    </div>
  );
}
