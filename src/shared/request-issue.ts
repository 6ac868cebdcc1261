// Why a schema refused a value, as a code the window words (never zod's English "Too small:
// expected ..."): which field (its contract name, the last named part of the issue's path), what is
// wrong with it, the bound it broke, and the option record's rule where its sentence is the message.
// The engine's refusal of a request (failures.ts) and the window's own checks share it.
import { z } from 'zod';
import { OPTION_RULE_CODES, ruleOfMessage, type OptionRule } from './capabilities/option-rules';

export const ISSUE_CAUSES = [
  'wrong_type', // missing, or not the kind of value the field takes
  'too_short', // text: fewer characters than `limit`
  'too_long', // text: more characters than `limit`
  'too_few', // a list: fewer entries than `limit`
  'too_many', // a list: more entries than `limit`
  'too_small', // a number below `limit` (or not above it: `exclusive`)
  'too_big', // a number above `limit` (or not below it: `exclusive`)
  'format', // text not in the field's form (a pattern, a URL, an e-mail address)
  'not_a_choice', // not one of the field's values
  'unknown_field', // a field the request does not have
  'rule', // an option record's rule (`rule`), said by its own words
  'other', // a check of the field with the rest of the request
] as const;
export type IssueCause = (typeof ISSUE_CAUSES)[number];

export const RequestIssue = z
  .object({
    /** The field's contract name ("budget", "name", "task"); '' for the request as a whole. */
    field: z.string().max(100),
    /** The whole path ("then.0.task"): which step or entry. */
    path: z.array(z.union([z.string().max(100), z.number().int()])).max(20),
    cause: z.enum(ISSUE_CAUSES),
    limit: z.number().nullable(),
    exclusive: z.boolean(),
    rule: z.enum(OPTION_RULE_CODES as [OptionRule, ...OptionRule[]]).nullable(),
  })
  .strict();
export type RequestIssue = z.infer<typeof RequestIssue>;

type Issue = z.core.$ZodIssue;

function bound(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  return null;
}

function causeOf(issue: Issue): { cause: IssueCause; limit: number | null; exclusive: boolean } {
  const plain = (cause: IssueCause) => ({ cause, limit: null, exclusive: false });
  switch (issue.code) {
    case 'invalid_type':
      return plain('wrong_type');
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = bound(small ? issue.minimum : issue.maximum);
      const exclusive = issue.inclusive === false;
      if (issue.origin === 'string') return { cause: small ? 'too_short' : 'too_long', limit, exclusive };
      if (issue.origin === 'array' || issue.origin === 'set') return { cause: small ? 'too_few' : 'too_many', limit, exclusive };
      return { cause: small ? 'too_small' : 'too_big', limit, exclusive };
    }
    case 'invalid_format':
      return plain('format');
    case 'invalid_value':
      return plain('not_a_choice');
    case 'unrecognized_keys':
      return plain('unknown_field');
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return plain('wrong_type');
    case 'not_multiple_of':
    case 'custom':
      return plain('other');
    default:
      return plain('other');
  }
}

/** The first issue of a refusal as a code; `undefined` (no issue given) is the request as a whole. */
export function requestIssue(issue: Issue | undefined): RequestIssue {
  if (issue === undefined) return { field: '', path: [], cause: 'other', limit: null, exclusive: false, rule: null };
  const path = issue.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number').slice(0, 20);
  // An unknown field is named by its key (the path is the object holding it).
  const unknown = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const named = [...path, ...(unknown !== undefined ? [unknown] : [])].filter((p): p is string => typeof p === 'string');
  const field = (named.at(-1) ?? '').slice(0, 100);
  const rule = ruleOfMessage(issue.message);
  const c = rule !== null ? { cause: 'rule' as const, limit: null, exclusive: false } : causeOf(issue);
  return { field, path: path.map((p) => (typeof p === 'string' ? p.slice(0, 100) : p)), ...c, rule };
}
