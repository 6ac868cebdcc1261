// A schema's refusal of a field in the window's language, from its code (shared/request-issue.ts):
// the field by its label on screen, what is wrong and what to do; never zod's English. Said for the
// engine's refusal of a request (refusal-words.ts) and for the window's own checks alike.
import type { z } from 'zod';
import { requestIssue, type RequestIssue } from '../../../shared/request-issue';
import { CAPABILITY_OPTIONS, BATCH_SETTINGS } from '../../../shared/capabilities/options';
import { exists, i18n } from '../i18n';
import { formatCount } from './time';

/** A field by its label in the window (an option's or setting's own record, else the catalogue's); unknown: its name. */
export function fieldLabel(field: string, lng?: string): string {
  const opts = lng ? { lng } : {};
  if (field in CAPABILITY_OPTIONS || field in BATCH_SETTINGS) return i18n.t(`options:${field}.label` as 'options:channel.label', opts);
  const key = `common:field.${field}`;
  return exists(key) ? i18n.t(key as 'common:field.name', opts) : field;
}

function isCoded(issue: RequestIssue | z.core.$ZodIssue): issue is RequestIssue {
  return 'cause' in issue;
}

/** `lng`: another language than the window's (the tests say both). */
export function issueWords(given: RequestIssue | z.core.$ZodIssue | undefined, lng?: string): string {
  const issue = given === undefined || !isCoded(given) ? requestIssue(given) : given;
  const opts = lng ? { lng } : {};
  if (issue.field === '') return i18n.t('common:issue.request', opts);
  const field = fieldLabel(issue.field, lng);
  let words: string;
  if (issue.cause === 'rule' && issue.rule !== null) {
    words = i18n.t('common:issue.rule', { field, rule: i18n.t(`options:rules.${issue.rule}`, opts), ...opts });
  } else {
    const cause = issue.cause === 'rule' ? 'other' : issue.cause;
    const exclusive = issue.exclusive && (cause === 'too_small' || cause === 'too_big');
    const limit = issue.limit === null ? '' : Number.isInteger(issue.limit) ? formatCount(issue.limit) : String(issue.limit);
    // A key from the closed cause list: test/unit/renderer/issue-words.test.ts says each in both languages.
    words = i18n.t(`common:issue.${cause}${exclusive ? '_exclusive' : ''}` as 'common:issue.other', { field, limit, ...opts });
  }
  // A pipeline's step is named by its number (the first batch is step 1).
  const [top, index] = issue.path;
  return top === 'then' && typeof index === 'number' ? i18n.t('common:issue.inStep', { n: index + 2, words, ...opts }) : words;
}
