// On a batch: "Compare tiers…" sends a few of its items again at the tiers chosen, and links to
// the comparisons already made. Not offered for work that reaches people or records, nor on a
// team's store (comparisons are made in one computer's data folder).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { TIERS, type Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { useStoreKind } from '../hooks/use-store-kind';
import { formatCount, formatDateTime } from '../format/time';
import { hrefFor } from '../routing/route';
import { navigate } from '../routing/use-route';
import { TIER_LABEL } from '../format/labels';
import './compare.css';

type Made = { group: string; tiers: Tier[]; sample: number; createdAt: string };

export function ComparePanel({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('compare');
  const id = useId();
  const action = useAction();
  const [open, setOpen] = useState(false);
  const [tiers, setTiers] = useState<Set<Tier>>(() => new Set(TIERS));
  const [sampleText, setSampleText] = useState('5');
  const [made, setMade] = useState<Made[]>([]);
  const store = useStoreKind();
  const offered = store === 'local' && !describe(batch.capability).sideEffect && batch.total > 0;
  useEffect(() => {
    if (!offered) return;
    let live = true;
    client()
      .call('compare.list', { batchId: batch.id })
      .then((m) => live && setMade(m))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [batch.id, offered]);
  if (!offered) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const sample = Number(sampleText.trim());
      if (!/^\d+$/.test(sampleText.trim()) || sample < 1 || sample > 50) throw new Error(t('panel.badSample', { got: sampleText.trim() }));
      const chosen = TIERS.filter((tier) => tiers.has(tier));
      if (chosen.length < 2) throw new Error(t('panel.fewTiers'));
      const view = await client().call('compare.create', { batchId: batch.id, tiers: chosen, sample });
      navigate({ name: 'compare', group: view.group });
    });
  };

  return (
    <section className="card stack compare-panel" aria-labelledby={`${id}-h`}>
      <div className="compare-panel__head">
        <h2 id={`${id}-h`}>{t('title')}</h2>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t('panel.open')}
        </button>
      </div>
      {made.length > 0 ? (
        <ul className="compare-panel__made">
          {made.map((m) => (
            <li key={m.group}>
              <a href={hrefFor({ name: 'compare', group: m.group })}>
                {t('panel.made', { tiers: m.tiers.map((tier) => TIER_LABEL[tier]).join(' · '), count: m.sample, n: formatCount(m.sample) })}
              </a>{' '}
              <span className="muted">{formatDateTime(m.createdAt)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <form onSubmit={submit} aria-label={t('panel.formAria')} className="stack">
          <p className="muted">{t('panel.intro', { total: formatCount(batch.total) })}</p>
          <fieldset className="compare-panel__tiers">
            <legend>{t('panel.tiers')}</legend>
            {TIERS.map((tier) => (
              <label key={tier}>
                <input
                  type="checkbox"
                  checked={tiers.has(tier)}
                  onChange={(e) => {
                    const next = new Set(tiers);
                    if (e.target.checked) next.add(tier);
                    else next.delete(tier);
                    setTiers(next);
                  }}
                />
                {TIER_LABEL[tier]}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-n`}>{t('panel.sample')}</label>
            <input id={`${id}-n`} type="text" inputMode="numeric" value={sampleText} onChange={(e) => setSampleText(e.target.value)} />
          </div>
          <div>
            <button type="submit" className="primary" disabled={action.busy}>
              {t('panel.send')}
            </button>
          </div>
          <ErrorAlert message={action.error} />
        </form>
      ) : null}
    </section>
  );
}
