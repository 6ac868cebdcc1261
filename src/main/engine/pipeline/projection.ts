// Estimates for the steps after the first, before anything ran: a step has as many items as the
// step before it (at most: a failed item never flows on), and its units follow from the text the
// step before offers (its descriptor's `yields`, a ratio stated with every estimate).
import type { BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import type { StoredOptions } from '../../../shared/capabilities/options';
import { stepLabel } from '../../../shared/capabilities/steps';
import { costOf } from '../costs/rate-book';
import type { StepBasis } from '../../../shared/step-basis';

export interface StepShape {
  capability: BatchCapability;
  options: StoredOptions;
  items: number;
  units: number;
}

export interface StepEstimate extends StepShape {
  label: string;
  unitName: string;
  tier: Tier;
  rate: number;
  cost: number;
  /** How the units were estimated, in words ("from step 1's 3,600 audio seconds: about 15 ..."). */
  basis: string;
  /** The same as a code with figures, for the window's language. */
  why: StepBasis;
}

export function projectStep(
  prev: StepShape,
  prevStep: number,
  next: { capability: BatchCapability; options: StoredOptions; tier: Tier; rate: number },
): StepEstimate {
  const pd = describe(prev.capability);
  const nd = describe(next.capability);
  const items = prev.items;
  let units: number;
  let basis: string;
  let why: StepBasis;
  switch (nd.measure) {
    case 'characters': {
      const y = pd.yields;
      units = y === null ? 0 : Math.round(prev.units * y.perUnit(prev.options));
      basis = `from step ${prevStep}'s ${Math.round(prev.units).toLocaleString('en')} ${pd.unit}: ${y?.basis(prev.options) ?? 'no text'}`;
      why = {
        kind: 'fromStep',
        step: prevStep,
        units: Math.round(prev.units),
        unitName: pd.unit,
        from: prev.capability,
        perUnit: y === null ? 0 : y.perUnit(prev.options),
        task: typeof prev.options.task === 'string' ? prev.options.task : null,
      };
      break;
    }
    case 'items':
    case 'media':
      units = items;
      basis = `one ${nd.unit.replace(/s$/, '')} per item of step ${prevStep}`;
      why = { kind: 'perItem', step: prevStep, unitName: nd.unit };
      break;
  }
  return {
    capability: next.capability,
    options: next.options,
    items,
    units,
    label: stepLabel({ capability: next.capability, ...next.options }),
    unitName: nd.unit,
    tier: next.tier,
    rate: next.rate,
    cost: costOf(units, next.rate),
    basis,
    why,
  };
}
