// "Then": the steps after the batch being prepared, each taking the results of the step before
// (a transcript to a summary, a summary to the CRM). Only steps that can follow are offered.
import { useId } from 'react';
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
  const { choices, placeholder } = stepChoices(main);
  return (
    <span className="then-step__option">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {choices ? (
        <select id={id} value={step.option} onChange={(e) => onChange(e.target.value)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} type="text" value={step.option} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
      )}
    </span>
  );
}

export function ThenSteps({ error }: { error: string | undefined }) {
  const d = useDraftStore();
  const headingId = useId();
  const last = d.then.at(-1)?.capability ?? d.capability;
  const next = describe(last).yields === null ? [] : followersOf(last);
  const update = (i: number, patch: Partial<DraftStep>) => d.set({ then: d.then.map((s, k) => (k === i ? { ...s, ...patch } : s)) });
  // Removing a step also removes the steps after it when they could no longer follow.
  const remove = (i: number) => d.set({ then: d.then.slice(0, i) });
  const add = () => {
    const c = next.includes('text') ? 'text' : next[0];
    if (c) d.set({ then: [...d.then, { capability: c, option: defaultOption(c) }] });
  };
  return (
    <section className="card stack then-steps" aria-labelledby={headingId}>
      <h2 id={headingId}>Then</h2>
      <p className="field-hint">
        Each step takes every result of the step before as it succeeds (a failed item never goes on). Budget, pause, resume and cancel cover every step.
      </p>
      {d.then.length > 0 ? (
        <ol className="then-steps__list">
          {d.then.map((s, i) => {
            const prev = i === 0 ? d.capability : (d.then[i - 1]?.capability ?? d.capability);
            return (
              <li key={i} className="then-step row" data-testid={`then-step-${i + 2}`}>
                <span className="then-step__number">Step {i + 2}</span>
                <label className="visually-hidden" htmlFor={`then-cap-${i}`}>
                  Step {i + 2} capability
                </label>
                <select
                  id={`then-cap-${i}`}
                  value={s.capability}
                  onChange={(e) => {
                    const c = followersOf(prev).find((x) => x === e.target.value);
                    if (c) d.set({ then: [...d.then.slice(0, i), { capability: c, option: defaultOption(c) }] });
                  }}
                >
                  {followersOf(prev).map((c) => (
                    <option key={c} value={c}>
                      {describe(c).label}
                    </option>
                  ))}
                </select>
                <StepOption step={s} label={`Step ${i + 2} option`} onChange={(option) => update(i, { option })} />
                <button type="button" onClick={() => remove(i)} aria-label={`Remove step ${i + 2}${i + 1 < d.then.length ? ' and the steps after it' : ''}`}>
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
      {next.length > 0 ? (
        <p>
          <button type="button" onClick={add}>
            Add a step
          </button>
        </p>
      ) : (
        <p className="muted">{describe(last).short} results offer no text for a next step.</p>
      )}
    </section>
  );
}
