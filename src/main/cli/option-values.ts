// Option values several commands read the same way (`batch create`, `watch add`): the steps of
// `--then`, checked as a chain, and amounts in EUR.
import { UsageError } from './exit-codes';
import { parseEur } from '../../shared/money';
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

/** An optional amount in EUR (integer 1/10,000 EUR), or null when the option is absent. */
export function eurOption(flag: string, text: string | undefined, example: string): number | null {
  if (text === undefined) return null;
  const amount = parseEur(text);
  if (amount === null) throw new UsageError(`--${flag} must be an amount in EUR above 0, such as ${example} or 12.50, at most 4 decimal places (got "${text}").`);
  // Nothing could be sent within it: a batch made with it would pause before its first item.
  if (amount === 0) throw new UsageError(`--${flag} 0 would let nothing be sent. Give an amount above 0, or leave --${flag} out for no limit.`);
  return amount;
}
