// Pipeline steps: a follow-up batch takes the succeeded results of the batch before it. A step is
// written `capability[:main option]` on the command line (`text:summary`, `crm:conversation`),
// built in the window's "Then" list, and checked by one rule: the step before must offer text
// (its descriptor's `yields`) and the step's capability must take it (`takesFrom`).
import { z } from 'zod';
import { BatchCapability, Tier, type BatchCapability as Cap } from '../domain';
import { describe } from './catalog';
import { CAPABILITY_OPTIONS, OPTION_FIELDS, type CapabilityOption, type OptionName } from './options';
import { misplacedOptions } from './request-options';

/** The option a step's `:value` sets, per capability that has one (its descriptor's `stepOption`). */
export const MAIN_OPTION: Partial<Record<Cap, OptionName>> = Object.fromEntries(
  BatchCapability.options.flatMap((c) => {
    const o = describe(c).stepOption;
    return o === undefined ? [] : [[c, o]];
  }),
);

/** What a step's `:value` offers for its main option: choices (null: typed text), the first value, a placeholder. */
export function stepChoices(option: OptionName): NonNullable<CapabilityOption['step']> {
  return (CAPABILITY_OPTIONS[option] as CapabilityOption).step ?? { choices: null, initial: '', placeholder: option };
}

/** One step after the first: its capability and options (tier: the first step's unless given). */
export const PipelineStep = z
  .object({
    capability: BatchCapability,
    tier: Tier.optional(),
    /**
     * How the step's batch is named after its first batch's name ("Anrufe 26 Nov → Zusammenfassung"):
     * the window's words for the step; absent: its command-line spelling ("text (summary)").
     */
    stepName: z.string().trim().min(1).max(80).optional(),
    ...OPTION_FIELDS,
  })
  .strict()
  .superRefine((s, ctx) => {
    if (!describe(s.capability).takesFrom)
      ctx.addIssue({ code: 'custom', path: ['capability'], message: `${s.capability} cannot take another batch's results (${takerList()} can).` });
    for (const m of misplacedOptions(s)) ctx.addIssue({ code: 'custom', path: [m.option], message: m.message });
  });
export type PipelineStep = z.output<typeof PipelineStep>;

export function takerList(): string {
  return Object.values(describeAll())
    .filter((d) => d.takesFrom)
    .map((d) => d.name)
    .join(', ');
}

function describeAll() {
  return BatchCapability.options.map((c) => describe(c));
}

/** Why `next` cannot follow `prev`, or null when it can. */
export function chainProblem(prev: Cap, next: Cap): string | null {
  if (describe(prev).yields === null) {
    const offering = describeAll()
      .filter((d) => d.yields !== null)
      .map((d) => d.name)
      .join(', ');
    return `${prev} results offer no text for a next step (${offering} results do).`;
  }
  if (!describe(next).takesFrom) return `${next} cannot take another batch's results (${takerList()} can).`;
  return null;
}

/**
 * Why a typed step is not one, as a code (the window words it; the message is the command line's
 * English): not a capability, an option where the capability takes none, classify (its labels
 * cannot be typed in a step), an option that is not one of `choices`, or another field's rule.
 */
export type StepTextProblem =
  | { code: 'not_capability'; takers: string[] }
  | { code: 'no_option'; capability: Cap }
  | { code: 'classify_labels' }
  | { code: 'not_a_choice'; capability: Cap; choices: string[] }
  | { code: 'invalid'; message: string };

/** `text:summary` -> a step; a usage message (and its code) when it is not one. */
export function parseStep(text: string): { ok: true; step: PipelineStep } | { ok: false; message: string; problem: StepTextProblem } {
  const [capText = '', value, ...rest] = text.split(':');
  const cap = BatchCapability.safeParse(capText.trim());
  if (!cap.success)
    return {
      ok: false,
      message: `"${text}": a step is capability[:option], e.g. text:summary or crm:conversation; capability one of ${takerList()}.`,
      problem: { code: 'not_capability', takers: takerList().split(', ') },
    };
  const main = MAIN_OPTION[cap.data];
  if (rest.length > 0 || (value !== undefined && main === undefined)) {
    return {
      ok: false,
      message: `"${text}": ${cap.data} takes no :option${main ? '' : ' (give it as capability alone)'}.`,
      problem: { code: 'no_option', capability: cap.data },
    };
  }
  const choices = main === undefined ? null : stepChoices(main).choices;
  if (main !== undefined && choices !== null && value !== undefined && !choices.includes(value.trim())) {
    return {
      ok: false,
      message:
        main === 'task' && value.trim() === 'classify'
          ? `"${text}": classify needs its labels, which a step cannot carry; once the pipeline exists, add it with \`batchdesk batch create text --from <the step before> --task classify --labels a,b,c\`.`
          : `"${text}": a ${cap.data} step's ${main} is one of ${choices.join(', ')}.`,
      problem:
        main === 'task' && value.trim() === 'classify' ? { code: 'classify_labels' } : { code: 'not_a_choice', capability: cap.data, choices: [...choices] },
    };
  }
  const raw: Record<string, unknown> = { capability: cap.data };
  if (value !== undefined && main !== undefined) raw[main] = value.trim();
  const r = PipelineStep.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path[0] && issue.path[0] !== 'capability' ? `${String(issue.path[0])} ` : '';
    const message = `"${text}": ${where}${issue?.message ?? 'not a valid step'}.`;
    return { ok: false, message, problem: { code: 'invalid', message } };
  }
  return { ok: true, step: r.data };
}

/** "text (summary)": a step as lists and status lines name it. */
export function stepLabel(s: { capability: Cap } & { [N in OptionName]?: unknown }): string {
  const main = MAIN_OPTION[s.capability];
  const v = main === undefined ? undefined : s[main];
  return typeof v === 'string' && v !== '' ? `${s.capability} (${v})` : s.capability;
}
