// Unit rates per item and tier, four decimals, editable; saved one by one with rates.set.
import { useEffect, useId, useMemo, useState } from 'react';
import type { RateView } from '../../../shared/contract';
import { TIERS, type Tier } from '../../../shared/domain';
import { RATE_LABELS } from '../../../shared/rates';
import { parseEur } from '../../../shared/money';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { moneyInputValue } from '../format/money';
import { unitSingular } from '../format/labels';

const ITEM_LABEL: Record<string, string> = RATE_LABELS;

const keyOf = (item: string, tier: Tier): string => `${item}|${tier}`;

export function RatesTable() {
  const load = useAction();
  const save = useAction();
  const [rates, setRates] = useState<RateView[] | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    void load.run(async () => setRates(await client().call('rates.list', {})));
  }, [load.run]);

  const items = useMemo(() => {
    const byItem = new Map<string, { unit: string; tiers: Partial<Record<Tier, RateView>> }>();
    for (const r of rates ?? []) {
      const entry = byItem.get(r.item) ?? { unit: r.unit, tiers: {} };
      entry.tiers[r.tier] = r;
      byItem.set(r.item, entry);
    }
    return [...byItem.entries()];
  }, [rates]);

  const changed = Object.entries(edits).filter(([k, text]) => {
    const [item, tier] = k.split('|') as [string, Tier];
    const current = rates?.find((r) => r.item === item && r.tier === tier);
    return current !== undefined && text.trim() !== moneyInputValue(current.rate);
  });

  const saveAll = () =>
    save.run(async () => {
      setNote(null);
      const parsed = changed.map(([k, text]) => {
        const [item, tier] = k.split('|') as [string, Tier];
        const rate = parseEur(text);
        if (rate === null) throw new Error(`The rate for ${ITEM_LABEL[item] ?? item} (${tier}) "${text}" is not an amount in EUR with at most four decimals.`);
        return { item, tier, rate };
      });
      let latest: RateView[] | null = null;
      for (const p of parsed) latest = await client().call('rates.set', p);
      if (latest) setRates(latest);
      setEdits({});
      setNote(`Saved ${parsed.length} rate${parsed.length === 1 ? '' : 's'}. New estimates and costs use them.`);
    });

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Unit rates</h2>
      <p className="muted">EUR per unit with four decimals, as your panel publishes them. Costs are units × rate.</p>
      <ErrorAlert message={load.error} />
      {rates ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void saveAll();
          }}
          className="stack"
          aria-label="Unit rates"
        >
          <div className="table-wrap">
            <table className="keys__rates">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Unit</th>
                  {TIERS.map((t) => (
                    <th key={t} scope="col">
                      {t[0]?.toUpperCase()}
                      {t.slice(1)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map(([item, { unit, tiers }]) => (
                  <tr key={item}>
                    <th scope="row">{ITEM_LABEL[item] ?? item}</th>
                    <td>{unitSingular(unit)}</td>
                    {TIERS.map((t) => {
                      const r = tiers[t];
                      if (!r) return <td key={t} />;
                      const k = keyOf(item, t);
                      return (
                        <td key={t}>
                          <span className="keys__rate-cell">
                            <span aria-hidden="true">€</span>
                            <input
                              type="text"
                              inputMode="decimal"
                              className="keys__rate-input"
                              aria-label={`Rate for ${ITEM_LABEL[item] ?? item}, ${t} tier, EUR per ${unitSingular(unit)}`}
                              value={edits[k] ?? moneyInputValue(r.rate)}
                              onChange={(e) => setEdits({ ...edits, [k]: e.target.value })}
                            />
                            {r.custom ? <span className="keys__custom">custom</span> : null}
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={save.busy || changed.length === 0}>
              Save rates
            </button>
            {changed.length > 0 ? <span className="muted">{changed.length} changed</span> : null}
          </div>
          <ErrorAlert message={save.error} />
          <StatusNote message={note} />
        </form>
      ) : null}
    </section>
  );
}
