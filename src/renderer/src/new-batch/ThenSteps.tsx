// "Then": the steps after the batch being prepared, each taking the results of the step before
// (a transcript to a summary, a summary to the CRM). Only steps that can follow are offered.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { capabilityWords, stepPlaceholder, stepValueWord } from '../format/option-words';
import { BATCH_CAPABILITIES, type BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { chainProblem, MAIN_OPTION, stepChoices } from '../../../shared/capabilities/steps';
import { useDraftStore, type DraftStep } from './draft-store';
import './ThenSteps.css';

/** Capabilities that can take the results of `prev`. */
function followersOf(prev: BatchCapability): BatchCapability[] {
  return BATCH_CAPABILITIES.filter((c) => chainProblem(prev, c) === null);
}

/** The value a new step of this capability starts with (its main option's record says). */
function defaultOption(c: BatchCapability): string {
  const main = MAIN_OPTION[c];
  return main === undefined ? '' : stepChoices(main).initial;
}

function StepOption({ step, onChange, label }: { step: DraftStep; onChange(option: string): void; label: string }) {
  const id = useId();
  const main = MAIN_OPTION[step.capability];
  if (main === undefined) return null;
  const { choices } = stepChoices(main);
  const placeholder = stepPlaceholder(main);
  return (
    <span className="then-step__option">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {choices ? (
        <select id={id} value={step.option} onChange={(e) => onChange(e.target.value)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {stepValueWord(main, c)}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} type="text" value={step.option} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
      )}
    </span>
  );
}

/**
 * The steps after `first`, as lists of choices by their names in the window's language (never the
 * command line's `text:summary`): New batch's "Then" and a watched folder's steps.
 */
export function StepsEditor({ first, steps, onChange }: { first: BatchCapability; steps: DraftStep[]; onChange(steps: DraftStep[]): void }) {
  const { t } = useTranslation(['newBatch', 'common']);
  const id = useId();
  const last = steps.at(-1)?.capability ?? first;
  const next = describe(last).yields === null ? [] : followersOf(last);
  const update = (i: number, patch: Partial<DraftStep>) => onChange(steps.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  // Removing a step also removes the steps after it when they could no longer follow.
  const remove = (i: number) => onChange(steps.slice(0, i));
  const add = () => {
    const c = next.includes('text') ? 'text' : next[0];
    if (c) onChange([...steps, { capability: c, option: defaultOption(c) }]);
  };
  return (
    <>
      {steps.length > 0 ? (
        <ol className="then-steps__list">
          {steps.map((s, i) => {
            const prev = i === 0 ? first : (steps[i - 1]?.capability ?? first);
            return (
              <li key={i} className="then-step row" data-testid={`then-step-${i + 2}`}>
                <span className="then-step__number">{t('then.step', { n: i + 2 })}</span>
                <label className="visually-hidden" htmlFor={`${id}-cap-${i}`}>
                  {t('then.capability', { n: i + 2 })}
                </label>
                <select
                  id={`${id}-cap-${i}`}
                  value={s.capability}
                  onChange={(e) => {
                    const c = followersOf(prev).find((x) => x === e.target.value);
                    if (c) onChange([...steps.slice(0, i), { capability: c, option: defaultOption(c) }]);
                  }}
                >
                  {followersOf(prev).map((c) => (
                    <option key={c} value={c}>
                      {capabilityWords(c).label}
                    </option>
                  ))}
                </select>
                <StepOption step={s} label={t('then.option', { n: i + 2 })} onChange={(option) => update(i, { option })} />
                <button
                  type="button"
                  onClick={() => remove(i)}
                  aria-label={i + 1 < steps.length ? t('then.removeWithLater', { n: i + 2 }) : t('then.remove', { n: i + 2 })}
                >
                  {t('common:remove')}
                </button>
              </li>
            );
          })}
        </ol>
      ) : null}
      {next.length > 0 ? (
        <p>
          <button type="button" onClick={add}>
            {t('then.add')}
          </button>
        </p>
      ) : (
        <p className="muted">{t('then.noText', { capability: capabilityWords(last).short })}</p>
      )}
    </>
  );
}

export function ThenSteps({ error }: { error: string | undefined }) {
  const d = useDraftStore();
  const { t } = useTranslation(['newBatch', 'common']);
  const headingId = useId();
  return (
    <section className="card stack then-steps" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('then.heading')}</h2>
      <p className="field-hint">{t('then.hint')}</p>
      <StepsEditor first={d.capability} steps={d.then} onChange={(then) => d.set({ then })} />
      {error ? <p className="field-error">{error}</p> : null}
    </section>
  );
}
