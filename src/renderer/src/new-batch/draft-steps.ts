// The steps after a first one as the window built them (a capability and its main option, from
// lists), made into the contract's pipeline steps: each named in the window's language
// (`stepName`, so its batch is "Anrufe 26 Nov → Texte (Zusammenfassung)" rather than the command
// line's "text (summary)"), or the reason one is not a step, in the window's words.
import type { BatchCapability } from '../../../shared/domain';
import { chainProblem, MAIN_OPTION, PipelineStep } from '../../../shared/capabilities/steps';
import { readOption } from '../../../shared/capabilities/options';
import { describe } from '../../../shared/capabilities/catalog';
import { capabilityWords, ruleWords, stepWords } from '../format/option-words';
import { t } from '../i18n';
import { issueWords } from '../format/issue-words';

/** A step after the first: its capability and the value of its main option (task, record, voice, size), as typed. */
export interface DraftStep {
  capability: BatchCapability;
  option: string;
}

export type DraftSteps = { ok: true; steps: PipelineStep[] } | { ok: false; n: number; problem: string };

/** Why `next` cannot follow `prev`, in the window's words; null when it can. */
function chainWords(prev: BatchCapability, next: BatchCapability): string | null {
  if (chainProblem(prev, next) === null) return null;
  if (describe(prev).yields === null) return t('newBatch:then.noText', { capability: capabilityWords(prev).short });
  return t('newBatch:errors.stepCannotFollow', { capability: capabilityWords(next).label, prev: capabilityWords(prev).label });
}

/** `n` in the problem is the step's number (the first batch is step 1). */
export function draftSteps(first: BatchCapability, steps: readonly DraftStep[]): DraftSteps {
  const out: PipelineStep[] = [];
  let prev = first;
  for (const [i, step] of steps.entries()) {
    const n = i + 2;
    const chain = chainWords(prev, step.capability);
    if (chain !== null) return { ok: false, n, problem: chain };
    const main = MAIN_OPTION[step.capability];
    const raw: Record<string, unknown> = { capability: step.capability };
    if (main !== undefined && step.option.trim() !== '') {
      // The option's own rule first: its sentence names the option and says what it takes.
      const option = readOption(main, step.option);
      if (!option.ok) return { ok: false, n, problem: ruleWords(option) };
      raw[main] = option.value;
    }
    const named = PipelineStep.safeParse(raw);
    if (!named.success) return { ok: false, n, problem: issueWords(named.error.issues[0]) };
    const parsed = PipelineStep.safeParse({ ...raw, stepName: stepWords(named.data).slice(0, 80) });
    if (!parsed.success) return { ok: false, n, problem: issueWords(parsed.error.issues[0]) };
    out.push(parsed.data);
    prev = step.capability;
  }
  return { ok: true, steps: out };
}
