// A pause as the window says it: one line without the command line's instructions (the window
// offers the action as a control), and the budget the engine worked out, to offer as that control.
import { parseEur } from '../../../shared/money';

/** The engine's reason without the sentences that tell a terminal user what to type. */
export function windowReason(reason: string): string {
  return reason
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => !sentence.includes('`') && !/\bbatchdesk\s/.test(sentence))
    .join(' ')
    .trim();
}

/** The batch to resume and the budget the engine suggested ("batchdesk resume <id> --budget 8.19"), if it named one. */
export function suggestedResume(reason: string): { id: string; budget: number } | null {
  const m = /batchdesk resume (\S+) --budget (\d+(?:\.\d+)?)/.exec(reason);
  if (m === null) return null;
  const budget = parseEur(m[2] ?? '');
  return budget === null ? null : { id: m[1] ?? '', budget };
}

/** Whole cents, rounded up: the estimate when it is above the budget, else the budget and a tenth more. */
export function suggestedBudget(budget: number, estimated: number, spent: number): number {
  const want = estimated > budget ? estimated : (Math.max(budget, spent) * 11) / 10;
  return Math.ceil(want / 100) * 100;
}
