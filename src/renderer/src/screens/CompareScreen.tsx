// #/compare/<group>: a tier comparison as a table: one column per tier (cost per item, projected
// for the whole batch, progress), one row per item with each tier's result and cost. Fills in
// live as the comparison's batches finish.
import { useEffect, useRef, useState } from 'react';
import type { ComparisonView } from '../../../shared/contract';
import { describe } from '../../../shared/capabilities/catalog';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatMoney } from '../format/money';
import { STATE_LABEL, TIER_LABEL } from '../format/labels';
import { hrefFor } from '../routing/route';
import { batchVersion, useBatchesStore } from '../store/batches-store';
import '../compare/compare.css';

export function CompareScreen({ group }: { group: string }) {
  const load = useAction();
  const [view, setView] = useState<ComparisonView | null>(null);
  // Re-read when any of the comparison's batches changes (at most every second).
  const ids = view?.tiers.map((t) => t.batchId) ?? [];
  const versions = useBatchesStore((s) => ids.map((id) => (s.byId[id] ? batchVersion(s.byId[id]) : '')).join(';'));
  const { run } = load;
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + 1_000 - Date.now());
    const t = window.setTimeout(() => {
      last.current = Date.now();
      void run(async () => setView(await client().call('compare.get', { group })));
    }, wait);
    return () => window.clearTimeout(t);
  }, [group, versions, run]);

  if (!view) {
    return (
      <div className="screen">
        <h1>Tier comparison</h1>
        {load.error ? <ErrorAlert message={load.error} /> : <p className="muted">Loading…</p>}
      </div>
    );
  }
  const unit = describe(view.of.capability).unit;
  return (
    <div className="screen compare">
      <p>
        <a href={hrefFor({ name: 'batch', id: view.of.id, jobId: null })}>← {view.of.name}</a>
      </p>
      <h1>Tier comparison</h1>
      <p className="muted">
        {view.sample} of the {view.of.total} items of “{view.of.name}” (created at the {TIER_LABEL[view.of.tier].toLowerCase()} tier), sent at each tier. Costs
        are measured; the projection is the cost per item times {view.of.total}.
      </p>
      <ErrorAlert message={load.error} />
      <div className="table-wrap">
        <table className="compare__table">
          <caption className="visually-hidden">Each item's result and cost at each tier</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              {view.tiers.map((t) => (
                <th scope="col" key={t.tier}>
                  <a href={hrefFor({ name: 'batch', id: t.batchId, jobId: null })}>{TIER_LABEL[t.tier]}</a>
                </th>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">Cost per item</th>
              {view.tiers.map((t) => (
                <td key={t.tier} className="num">
                  {t.perItem === null ? '—' : formatMoney(t.perItem)}
                </td>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">For all {view.of.total.toLocaleString()} items</th>
              {view.tiers.map((t) => (
                <td key={t.tier} className="num compare__projected">
                  {t.projected === null ? '—' : formatMoney(t.projected)}
                </td>
              ))}
            </tr>
            <tr className="compare__summary">
              <th scope="row">Done</th>
              {view.tiers.map((t) => (
                <td key={t.tier} className="num">
                  {t.finished} of {view.sample}
                  {t.failed > 0 ? `, ${t.failed} failed` : ''} · {formatMoney(t.cost)} · {t.units.toLocaleString()} {unit}
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
                        <span className="compare__result">{c.result ?? ''}</span>
                        <a
                          className="compare__cost"
                          href={hrefFor({ name: 'batch', id: view.tiers.find((t) => t.tier === c.tier)?.batchId ?? '', jobId: c.jobId })}
                        >
                          {c.cost === null ? 'open' : formatMoney(c.cost)}
                        </a>
                      </>
                    ) : (
                      <span className={c.state === 'failed' ? 'compare__error' : 'muted'}>{c.error ?? STATE_LABEL[c.state]}</span>
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
