// How a step's units were estimated, in the window's language: the engine sends a code with its
// figures (shared/step-basis), never English words.
import type { ProjectedBasis, StepBasis } from '../../../shared/step-basis';
import type { BatchCapability } from '../../../shared/domain';
import { MAIN_OPTION } from '../../../shared/capabilities/steps';
import { formatLocale, t } from '../i18n';
import { formatUnits, unitSingular } from '../format/labels';
import { formatCount } from '../format/time';
import { stepValueWord, stepWords } from '../format/option-words';

/** What text a step before yields per unit: a text task's share of its input, else characters per unit. */
function yieldWords(b: Extract<ProjectedBasis, { kind: 'fromStep' }>): string {
  if (b.from === 'text') {
    return t('newBatch:preview.basis.textYield', { task: stepValueWord('task', b.task ?? 'summary'), pct: formatCount(Math.round(b.perUnit * 100)) });
  }
  return t('newBatch:preview.basis.charsPerUnit', {
    n: b.perUnit.toLocaleString(formatLocale(), { maximumFractionDigits: 1 }),
    unit: unitSingular(b.unitName),
  });
}

function projectedWords(b: ProjectedBasis): string {
  switch (b.kind) {
    case 'measured':
      return t('newBatch:preview.basis.measured');
    case 'fromStep':
      return t('newBatch:preview.basis.fromStep', { step: b.step, units: formatUnits(b.units, b.unitName), yield: yieldWords(b) });
    case 'perItem':
      return t('newBatch:preview.basis.perItem', { step: b.step, unit: unitSingular(b.unitName) });
  }
}

/** "from step 1's 4 audio seconds: about 15 characters per audio second", in the window's language. */
export function stepBasisWords(b: StepBasis): string {
  if (b.kind !== 'resultsNow') return projectedWords(b);
  if (b.more === 0) return t('newBatch:preview.basis.resultsOf', { count: b.now, n: formatCount(b.now), batch: b.batchId });
  return t('newBatch:preview.basis.resultsNow', { count: b.now, n: formatCount(b.now), more: formatCount(b.more), then: projectedWords(b.then) });
}

/** A step's name from its capability and main option ("Text (Zusammenfassung)"). */
export function estimateStepWords(s: { capability: BatchCapability; mainOption: string | null }): string {
  const main = MAIN_OPTION[s.capability];
  return stepWords(main === undefined || s.mainOption === null ? { capability: s.capability } : { capability: s.capability, [main]: s.mainOption });
}
