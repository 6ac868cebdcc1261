// A refusal the engine gave as a code (shared/refusals.ts), in the window's language: what the
// window can do instead, named by its own controls, never the command line's command.
import type { Refusal } from '../../../shared/refusals';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { capabilityWords } from '../format/option-words';
import { formatMoney } from '../format/money';

/** The refusal in the window's words (`lng`: another language than the window's, for the tests). */
export function refusalWords(r: Refusal, lng?: string): string {
  const say = (key: string, values: Record<string, unknown> = {}): string =>
    // Keys built from the closed code union: test/unit/renderer/refusal-words.test.ts says every code in both languages.
    i18n.t(`common:refusal.${key}` as 'common:refusal.team_compare', { ...values, ...(lng ? { lng } : {}) });
  switch (r.code) {
    case 'team_compare':
    case 'team_follow_up':
    case 'save_needs_desktop':
      return say(r.code);
    case 'team_files':
      return say('team_files', { what: capabilityWords(r.capability).label });
    case 'local_batch_in_team':
    case 'schedule_started':
      return say(r.code, { batch: r.batch });
    case 'no_invoice_to_review':
      return say('no_invoice_to_review', { job: r.job });
    case 'budget_spent':
      return say('budget_spent', { batch: r.batch, budget: formatMoney(r.budget), spent: formatMoney(r.spent), enough: formatMoney(r.enough) });
    default:
      return assertNever(r, 'refusal');
  }
}
