// #/costs/statement/<month>[/<client>]: a client's monthly statement, one line per batch, laid out
// to print (Print saves it as PDF in the print dialog) and downloadable as CSV.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monthRange, type SpendReport } from '../../../shared/spend';
import { capabilityWords } from '../format/option-words';
import { clientWords } from '../costs/spend-words';
import { BATCH_CAPABILITIES, type BatchCapability } from '../../../shared/domain';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatMoney } from '../format/money';
import { formatCount, formatDateTime } from '../format/time';
import { hrefFor } from '../routing/route';
import { useBatchesStore } from '../store/batches-store';
import { downloadStatement } from '../costs/ClientSpend';
import { dayWords, monthWords } from '../costs/period-words';
import { formatUnits } from '../format/labels';
import '../costs/statement.css';

function capabilityOf(id: string, byId: Record<string, { capability: BatchCapability } | undefined>): string {
  const c = byId[id]?.capability;
  return c && (BATCH_CAPABILITIES as readonly string[]).includes(c) ? capabilityWords(c).label : '';
}

export function StatementScreen({ month, client: clientName }: { month: string; client: string | null }) {
  const { t } = useTranslation('costs');
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
  const who = clientWords(clientName);

  return (
    <div className="screen statement">
      <div className="statement__actions no-print">
        <a href={hrefFor({ name: 'costs' })}>{t('statementPage.back')}</a>
        <button type="button" className="primary" onClick={() => window.print()} disabled={report === null}>
          {t('statementPage.print')}
        </button>
        <button type="button" onClick={() => void download.run(() => downloadStatement(month, clientName))} disabled={download.busy}>
          {t('statementPage.downloadCsv')}
        </button>
      </div>
      <ErrorAlert message={range === null ? t('statementPage.notAMonth', { month }) : (load.error ?? download.error)} />
      <article className="statement__page" aria-labelledby="statement-title">
        <header className="statement__head">
          <div>
            <p className="statement__kind">{t('statementPage.kind')}</p>
            <h1 id="statement-title">{who}</h1>
            <p>{t('statementPage.range', { month: monthWords(month), from: dayWords(range?.from ?? ''), to: dayWords(range?.to ?? '') })}</p>
          </div>
          <dl className="statement__facts">
            <div>
              <dt>{t('statementPage.prepared')}</dt>
              <dd>{formatDateTime(made)}</dd>
            </div>
            <div>
              <dt>{t('total')}</dt>
              <dd className="statement__total">{report ? formatMoney(report.total) : '…'}</dd>
            </div>
          </dl>
        </header>
        {report === null ? (
          <p className="muted">{t('loading')}</p>
        ) : report.rows.length === 0 ? (
          <p>{t('statementPage.none', { who, month: monthWords(month) })}</p>
        ) : (
          <table className="statement__table">
            <caption className="visually-hidden">{t('statementPage.caption', { who, month: monthWords(month) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col.batch')}</th>
                <th scope="col">{t('col.work')}</th>
                <th scope="col">{t('col.days')}</th>
                <th scope="col" className="num">
                  {t('col.items')}
                </th>
                <th scope="col" className="num">
                  {t('col.units')}
                </th>
                <th scope="col" className="num">
                  {t('col.amount')}
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
                  <td className="statement__days">
                    {r.first === r.last ? dayWords(r.first) : t('statementPage.days', { from: dayWords(r.first), to: dayWords(r.last) })}
                  </td>
                  <td className="num">{formatCount(r.items)}</td>
                  <td className="num">{r.units === null ? '' : formatUnits(r.units, r.unit ?? '')}</td>
                  <td className="num">{formatMoney(r.cost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('total')}
                </th>
                <td className="num">{formatCount(report.items)}</td>
                <td />
                <td className="num">{formatMoney(report.total)}</td>
              </tr>
            </tfoot>
          </table>
        )}
        <p className="statement__note">{t('statementPage.note')}</p>
      </article>
    </div>
  );
}
