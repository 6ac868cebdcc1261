// Every refusal the engine gives as a code is said in both of the window's languages, naming the
// window's controls and never a shell command; an RPC failure that carries one shows those words.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { REFUSAL_CODES, type Refusal } from '../../../src/shared/refusals';
import { refusalWords } from '../../../src/renderer/src/components/refusal-words';
import { RpcFailure } from '../../../src/renderer/src/transport/client';

type Code = Refusal['code'];

/** One refusal of every code: the compiler asks for a new code's, the test below for its words. */
const REFUSALS: { [C in Code]: Extract<Refusal, { code: C }> } = {
  team_compare: { code: 'team_compare' },
  team_files: { code: 'team_files', capability: 'ocr' },
  team_follow_up: { code: 'team_follow_up' },
  local_batch_in_team: { code: 'local_batch_in_team', batch: 'b-12' },
  no_invoice_to_review: { code: 'no_invoice_to_review', job: 17 },
  budget_spent: { code: 'budget_spent', batch: 'b-12', budget: 50_000, spent: 81_900, enough: 82_000 },
  schedule_started: { code: 'schedule_started', batch: 'b-12' },
  save_needs_desktop: { code: 'save_needs_desktop' },
};

describe('refusals in the window', () => {
  it('has words for every code in English and German, none of them a command to type', () => {
    expect(Object.keys(REFUSALS).sort()).toEqual([...REFUSAL_CODES].sort());
    for (const r of Object.values(REFUSALS)) {
      const en = inLanguage('en', 'en-GB', () => refusalWords(r));
      const de = inLanguage('de', 'de-DE', () => refusalWords(r));
      expect(en, r.code).toMatch(/\w/);
      expect(de, r.code).not.toBe(en);
      expect(`${en} ${de}`, r.code).not.toMatch(/\{\{|refusal\.|batchdesk [a-z]|--[a-z]|`/);
    }
  });

  it('writes the budget figures the locale way', () => {
    expect(inLanguage('de', 'de-DE', () => refusalWords(REFUSALS.budget_spent))).toMatch(/mindestens 8,20\s€/);
  });

  it("shows the refusal's words instead of the engine's English", () => {
    const english = 'A budget of €5.00 leaves nothing to send: `batchdesk resume b-12 --budget 8.20`.';
    const failure = inLanguage('de', 'de-DE', () => new RpcFailure('invalid_argument', english, REFUSALS.budget_spent));
    expect(failure.message).toMatch(/^Ein Budget von/);
    expect(new RpcFailure('invalid_argument', english).message).toBe(english);
  });
});
