// Option values several commands read the same way (`batch create`, `watch add`): the steps of
// `--then`, checked as a chain, and budgets in EUR.
import { UsageError } from './exit-codes';
import { readSetting } from '../../shared/capabilities/options';
import type { BatchCapability } from '../../shared/domain';
import { chainProblem, parseStep, type PipelineStep } from '../../shared/capabilities/steps';

/** `--then` steps after a first capability; each must take the results of the step before. */
export function thenSteps(first: BatchCapability, texts: readonly string[] | undefined): PipelineStep[] {
  const then: PipelineStep[] = [];
  let prev = first;
  for (const text of texts ?? []) {
    const step = parseStep(text);
    if (!step.ok) throw new UsageError(`--then ${step.message}`);
    const problem = chainProblem(prev, step.step.capability);
    if (problem) throw new UsageError(`--then ${text}: ${problem}`);
    then.push(step.step);
    prev = step.step.capability;
  }
  return then;
}

/** An optional budget in EUR (integer 1/10,000 EUR) checked by the contract's rule, or null when the option is absent. */
export function budgetOption(flag: string, text: string | undefined): number | null {
  if (text === undefined) return null;
  const r = readSetting('budget', text);
  if (!r.ok) throw new UsageError(`--${flag}: ${r.message} (got "${text}").`);
  return r.value;
}
