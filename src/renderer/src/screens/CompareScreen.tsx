// #/compare/<group>: a tier comparison as a table: one column per tier (cost per item, projected
// for the whole batch, progress), one row per item with each tier's result and cost. Fills in
// live as the comparison's batches finish.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComparisonView } from '../../../shared/contract';
import { describe } from '../../../shared/capabilities/catalog';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatItemCost, formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { formatUnits, STATE_LABEL, TIER_LABEL } from '../format/labels';
import { hrefFor } from '../routing/route';
import { batchVersion, useBatchesStore } from '../store/batches-store';
import { errorLine, resultLine } from '../jobs/job-row-words';
import '../compare/compare.css';

type Cell = ComparisonView['items'][number]['cells'][number];

/**
 * A cell without a result: its state, or why it failed in the window's words (by its error's kind
 * or note, as the job table says it). The stored words (the engine's English, quoting the API's
 * own) are the detail, in the title, marked as such.
 */
function FailedOrState({ cell }: { cell: Cell }) {
  const { t } = useTranslation('jobs');
  if (cell.state !== 'failed' || cell.error === null) return <span className="muted">{STATE_LABEL[cell.state]}</span>;
  return (
    <span className="compare__error" title={`${t('errorDetail')} ${cell.error}`}>
      {errorLine({ state: cell.state, error: cell.error, errorKind: cell.errorKind, note: cell.note })}
    </span>
  );
}

export function CompareScreen({ group }: { group: string }) {
  const { t } = useTranslation('compare');
  const load = useAction();
  const [view, setView] = useState<ComparisonView | null>(null);
  // Re-read when any of the comparison's batches changes (at most every second).
  const ids = view?.tiers.map((t) => t.batchId) ?? [];
  const versions = useBatchesStore((s) => ids.map((id) => (s.byId[id] ? batchVersion(s.byId[id]) : '')).join(';'));
  const { run } = load;
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + 1_000 - Date.now());
    const timer = window.setTimeout(() => {
      last.current = Date.now();
      void run(async () => setView(await client().call('compare.get', { group })));
    }, wait);
    return () => window.clearTimeout(timer);
  }, [group, versions, run]);

  if (!view) {
    return (
      <div className="screen">
        <h1>{t('title')}</h1>
        {load.error ? <ErrorAlert message={load.error} /> : <p className="muted">{t('loading')}</p>}
      </div>
    );
  }
  const unit = describe(view.of.capability).unit;
  return (
    <div className="screen compare">
      <p>
        <a href={hrefFor({ name: 'batch', id: view.of.id, jobId: null })}>← {view.of.name}</a>
      </p>
      <h1>{t('title')}</h1>
      <p className="muted">
        {t('intro', { sample: formatCount(view.sample), total: formatCount(view.of.total), name: view.of.name, tier: TIER_LABEL[view.of.tier] })}
      </p>
      <ErrorAlert message={load.error} />
      <div className="table-wrap">
        <table className="compare__table">
          <caption className="visually-hidden">{t('caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('item')}</th>
              {view.tiers.map((c) => (
                <th scope="col" key={c.tier}>
                  <a href={hrefFor({ name: 'batch', id: c.batchId, jobId: null })}>{TIER_LABEL[c.tier]}</a>
                </th>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">{t('perItem')}</th>
              {view.tiers.map((c) => (
                <td key={c.tier} className="num">
                  {c.perItem === null ? '—' : formatItemCost(c.perItem)}
                </td>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">{t('forAll', { count: view.of.total, n: formatCount(view.of.total) })}</th>
              {view.tiers.map((c) => (
                <td key={c.tier} className="num compare__projected">
                  {c.projected === null ? '—' : formatMoney(c.projected)}
                </td>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">{t('done')}</th>
              {view.tiers.map((c) => (
                <td key={c.tier} className="num">
                  {c.failed > 0
                    ? t('doneOfFailed', { finished: formatCount(c.finished), sample: formatCount(view.sample), failed: formatCount(c.failed) })
                    : t('doneOf', { finished: formatCount(c.finished), sample: formatCount(view.sample) })}{' '}
                  · {formatMoney(c.cost)} · {formatUnits(c.units, unit)}
                </td>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.items.map((item) => (
              <tr key={item.seq}>
                <th scope="row" className="compare__source">
                  {item.source.split(/[\\/]/).pop()}
                </th>
                {item.cells.map((c) => (
                  <td key={c.tier}>
                    {c.state === 'succeeded' ? (
                      <>
                        <span className="compare__result">{resultLine(c)}</span>
                        <a
                          className="compare__cost"
                          href={hrefFor({ name: 'batch', id: view.tiers.find((x) => x.tier === c.tier)?.batchId ?? '', jobId: c.jobId })}
                        >
                          {c.cost === null ? t('open') : formatMoney(c.cost)}
                        </a>
                      </>
                    ) : (
                      <FailedOrState cell={c} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
