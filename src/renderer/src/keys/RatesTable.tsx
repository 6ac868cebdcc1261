// Unit rates per item and tier, four decimals, editable; saved one by one with rates.set.
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RateView } from '../../../shared/contract';
import { TIERS, type Tier } from '../../../shared/domain';
import { parseEur } from '../../../shared/money';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { euroSignAfter, moneyInputValue } from '../format/money';
import { TIER_LABEL, unitSingular } from '../format/labels';
import { rateItemWords } from './rate-item-words';

const keyOf = (item: string, tier: Tier): string => `${item}|${tier}`;

export function RatesTable() {
  const { t } = useTranslation('keys');
  // The euro sign where the locale writes it: "€ 0.0002" in English, "0,0002 €" in German.
  const after = euroSignAfter();
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
        if (rate === null) throw new Error(t('rates.badRate', { item: rateItemWords(item), tier: TIER_LABEL[tier], text }));
        return { item, tier, rate };
      });
      let latest: RateView[] | null = null;
      for (const p of parsed) latest = await client().call('rates.set', p);
      if (latest) setRates(latest);
      setEdits({});
      setNote(t('rates.saved', { count: parsed.length }));
    });

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('rates.heading')}</h2>
      <p className="muted">{t('rates.intro')}</p>
      <ErrorAlert message={load.error} />
      {rates ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void saveAll();
          }}
          className="stack"
          aria-label={t('rates.heading')}
        >
          <div className="table-wrap">
            <table className="keys__rates">
              <thead>
                <tr>
                  <th scope="col">{t('rates.item')}</th>
                  <th scope="col">{t('rates.unit')}</th>
                  {TIERS.map((tier) => (
                    <th key={tier} scope="col">
                      {TIER_LABEL[tier]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map(([item, { unit, tiers }]) => (
                  <tr key={item}>
                    <th scope="row">{rateItemWords(item)}</th>
                    <td>{unitSingular(unit)}</td>
                    {TIERS.map((tier) => {
                      const r = tiers[tier];
                      if (!r) return <td key={tier} />;
                      const k = keyOf(item, tier);
                      return (
                        <td key={tier}>
                          <span className="keys__rate-cell">
                            {after ? null : <span aria-hidden="true">€</span>}
                            <input
                              type="text"
                              inputMode="decimal"
                              className="keys__rate-input"
                              aria-label={t('rates.rateAria', { item: rateItemWords(item), tier: TIER_LABEL[tier], unit: unitSingular(unit) })}
                              value={edits[k] ?? moneyInputValue(r.rate)}
                              onChange={(e) => setEdits({ ...edits, [k]: e.target.value })}
                            />
                            {after ? <span aria-hidden="true">€</span> : null}
                            {r.custom ? <span className="keys__custom">{t('rates.custom')}</span> : null}
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
              {t('rates.save')}
            </button>
            {changed.length > 0 ? <span className="muted">{t('rates.changed', { count: changed.length })}</span> : null}
          </div>
          <ErrorAlert message={save.error} />
          <StatusNote message={note} />
        </form>
      ) : null}
    </section>
  );
}
