// Every pause, waiting, trouble and error code the engine can return is said in English on the
// command line (from the code, in one place) and in both of the window's languages: a code added
// to a union without its words fails here, in either language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inLanguage } from './in-language';
import {
  PAUSE_CODES,
  PauseReason,
  pauseSentence,
  WAITING_CODES,
  waitingSentence,
  type PauseCode,
  type WaitingCode,
  type WaitingReason,
} from '../../../src/shared/batch-reason';
import { ApiTroubleKind } from '../../../src/shared/domain';
import { ERROR_KINDS } from '../../../src/shared/errors';
import { errorKindLine, pauseCodeLine, pauseHeader, troubleLine, waitingCodeLine } from '../../../src/renderer/src/components/pause-words';
import { errorLine } from '../../../src/renderer/src/jobs/job-row-words';

const standing = { at: 'pause', spentE4: 49_000, inFlightE4: 1_000, next: 'call-007.wav', nextCostE4: 1_500 } as const;

/** One reason of every code: the compiler asks for a new code's, the test below for its words. */
const PAUSES: { [C in PauseCode]: Extract<PauseReason, { code: C }> } = {
  user_paused: { code: 'user_paused', resume: 'batchdesk resume b1' },
  budget_reached: {
    code: 'budget_reached',
    budgetE4: 50_000,
    holder: 'b1',
    batch: 'b1',
    steps: 1,
    standing,
    fits: false,
    suggestedBudgetE4: 81_900,
    team: false,
  },
  no_key: { code: 'no_key', credential: 'api', label: null, batch: 'b1', envVar: 'BATCHDESK_API_KEY' },
  keychain_failed: { code: 'keychain_failed', message: 'The OS keychain is not available.' },
  key_refused: { code: 'key_refused', message: 'The API key was refused (HTTP 401).', team: null, key: 'acme', status: 401 },
  spending_cap: { code: 'spending_cap', message: "The API key's spending cap is reached.", key: null, status: null },
  rate_limited: { code: 'rate_limited', message: 'The API answered 429 (request limit reached) 8 times in a row.' },
  server_wait: { code: 'server_wait', message: 'The API asked to wait until 23/11/2026, 14:05:00 (HTTP 503).' },
  api_elsewhere: { code: 'api_elsewhere', message: 'Its first items went to https://api.example.', sentTo: 'https://api.example/', here: null },
  sample_done: { code: 'sample_done', message: 'The sample of 5 items cost €0.0500.', figures: null },
};

const WAITINGS: { [C in WaitingCode]: Extract<WaitingReason, { code: C }> } = {
  held: { code: 'held', message: 'held until 08:00 Europe/Berlin (quiet hours 21:00-08:00, zone column)', zone: 'Europe/Berlin', held: 12 },
  retrying: { code: 'retrying', kind: 'transient', message: 'HTTP 503 from the API; retrying.' },
  awaiting_step: { code: 'awaiting_step', items: 1_200 },
  answer_slow: { code: 'answer_slow', requests: 2, oldestS: 45 },
};

/** The window's lines for every code, in one language. */
function windowLines(lng: 'en' | 'de', tag: string): Record<string, string> {
  return inLanguage(lng, tag, () => ({
    ...Object.fromEntries(PAUSE_CODES.map((c) => [`pause ${c}`, pauseCodeLine(PAUSES[c], c === 'server_wait' ? '2026-11-23T14:05:00.000Z' : null)])),
    ...Object.fromEntries(WAITING_CODES.map((c) => [`waiting ${c}`, waitingCodeLine(WAITINGS[c], c === 'answer_slow' ? null : '2026-11-23T07:00:00.000Z')])),
    ...Object.fromEntries(ApiTroubleKind.options.map((k) => [`trouble ${k}`, troubleLine({ kind: k, reason: '', since: '2026-11-23T07:00:00.000Z' })])),
    ...Object.fromEntries(ERROR_KINDS.map((k) => [`error ${k}`, errorKindLine(k)])),
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reasons as codes', () => {
  it('has a reason of every code to test with', () => {
    expect(Object.keys(PAUSES).sort()).toEqual([...PAUSE_CODES].sort());
    expect(Object.keys(WAITINGS).sort()).toEqual([...WAITING_CODES].sort());
  });

  it('says each pause in English for the command line, as it said it before codes', () => {
    for (const c of PAUSE_CODES) expect(pauseSentence(PAUSES[c]).length, c).toBeGreaterThan(10);
    expect(pauseSentence(PAUSES.user_paused)).toBe('Paused by the user. `batchdesk resume b1` (or Resume in the window) continues it; nothing is sent twice.');
    expect(pauseSentence(PAUSES.budget_reached)).toBe(
      'The budget of €5.0000 would be crossed: when it paused, €4.9000 was spent and €0.1000 in flight, and the next item (call-007.wav) costs about €0.1500. Raise the budget and resume to continue (in the window: Resume with a new budget; on the command line: `batchdesk resume b1 --budget 8.19` covers what is spent and the estimate of what is left, later steps included).',
    );
    expect(pauseSentence({ ...PAUSES.budget_reached, team: true, holder: 'p1', steps: 3, standing: { at: 'team', next: 'a.pdf', nextCostE4: 100 } })).toBe(
      "The budget of €5.0000 (it covers batch p1 and the 2 step(s) after it) would be crossed: what it spent plus what the team's workers have in flight leaves no room for the next item (a.pdf, about €0.0100). Raise the budget and resume to continue (`batchdesk resume p1 --budget 8.19 --store URL` covers what is spent and the estimate of what is left, later steps included).",
    );
    expect(pauseSentence(PAUSES.no_key)).toBe(
      'No API key is configured. Add one with `batchdesk keys add --kind api --label NAME` (or set BATCHDESK_API_KEY), then resume it: `batchdesk resume b1` (in the window: Resume).',
    );
    expect(pauseSentence({ ...PAUSES.key_refused, team: 'b1' })).toMatch(
      /^The API key was refused \(HTTP 401\)\. For the team: resume it from a computer that has the new key/,
    );
  });

  it('says each waiting in English for the command line', () => {
    expect(waitingSentence(WAITINGS.held, null)).toBe(WAITINGS.held.message);
    expect(waitingSentence(WAITINGS.awaiting_step, null)).toBe('waiting for the step before: 1,200 item(s) still in the works there');
    expect(waitingSentence(WAITINGS.answer_slow, null)).toBe('waiting for the API to answer (2 requests in flight, the oldest for 45 s)');
    expect(waitingSentence(WAITINGS.retrying, Date.parse('2026-11-23T07:00:00.000Z'))).toMatch(
      /^retrying at \d\d:00:00 after: HTTP 503 from the API; retrying\.$/,
    );
  });

  it('says every code in the window in English and in German, never the one for the other', () => {
    const en = windowLines('en', 'en-GB');
    const de = windowLines('de', 'de-DE');
    expect(Object.keys(de)).toEqual(Object.keys(en));
    for (const [what, line] of Object.entries(en)) {
      expect(line, what).not.toMatch(/^(batch|jobs):|reason\.|errorKind\./);
      expect(line, what).not.toMatch(/batchdesk |`/);
      // A German line that fell back to English (a key missing in German) would be the same.
      expect(de[what], what).not.toBe(line);
      expect(de[what], what).not.toMatch(/^(batch|jobs):|reason\.|errorKind\./);
    }
  });

  it("writes a pause's figures the German way, and the English way in English", () => {
    const plain = (s: string): string => s.replace(/\u00a0|\u202f/g, ' ');
    const budget = { ...PAUSES.budget_reached, budgetE4: 12_345_000 };
    expect(plain(inLanguage('de', 'de-DE', () => pauseCodeLine(budget, null)))).toBe(
      'Das Budget von 1.234,50 € ist erreicht: 4,90 € ausgegeben und 0,10 € in Bearbeitung, und das nächste Element (call-007.wav) kostet etwa 0,15 €.',
    );
    expect(inLanguage('en', 'en-US', () => pauseCodeLine(budget, null))).toBe(
      'The budget of €1,234.50 is reached: €4.90 spent and €0.10 in flight, and the next item (call-007.wav) costs about €0.15.',
    );
  });

  it("says a budget pause with the batch's figures as they stand now: what was in flight has since been paid", () => {
    const plain = (s: string): string => s.replace(/\u00a0|\u202f/g, ' ');
    const budget = { ...PAUSES.budget_reached, budgetE4: 200 };
    // Paused with 0.00 spent and 0.0200 in flight; that item finished, so the header says 0.0200 spent.
    const paused = { ...budget, standing: { at: 'pause' as const, spentE4: 0, inFlightE4: 200, next: 'invoice-halvorsen.pdf', nextCostE4: 100 } };
    expect(plain(inLanguage('de', 'de-DE', () => pauseCodeLine(paused, null, { spentE4: 200, running: 0 })))).toBe(
      'Das Budget von 0,02 € ist erreicht: 0,02 € ausgegeben, und das nächste Element (invoice-halvorsen.pdf) kostet etwa 0,01 €.',
    );
    // Still in flight: the part not yet paid is said as in flight, the rest as spent.
    expect(inLanguage('en', 'en-US', () => pauseCodeLine(paused, null, { spentE4: 100, running: 1 }))).toMatch(/€0\.01 spent and €0\.01 in flight/);
  });

  it('names the refused key and the HTTP status in both languages', () => {
    const refused = { code: 'key_refused' as const, message: 'refused', team: null, key: 'acme', status: 401 };
    expect(inLanguage('de', 'de-DE', () => pauseCodeLine(refused, null))).toMatch(/^Angehalten: Die API hat den Schlüssel „acme“ abgelehnt \(HTTP 401\)/);
    expect(inLanguage('en', 'en-US', () => pauseCodeLine({ ...refused, team: 't1' }, null))).toMatch(
      /^Paused: the API refused the key "acme" \(HTTP 401\).*new key/,
    );
    const cap = { code: 'spending_cap' as const, message: 'cap', key: 'acme', status: 402 };
    expect(inLanguage('de', 'de-DE', () => pauseCodeLine(cap, null))).toMatch(/^Das Ausgabenlimit des Schlüssels „acme“ ist erreicht \(HTTP 402\)/);
    // A pause stored before the figures still parses, and says its line without them.
    expect(PauseReason.parse({ code: 'spending_cap', message: 'cap' })).toEqual({ code: 'spending_cap', message: 'cap', key: null, status: null });
  });

  it("says a sample's cost and projection with the locale's numbers, for a batch and a pipeline", () => {
    const plain = (s: string): string => s.replace(/\u00a0|\u202f/g, ' ');
    const figures = {
      done: 5,
      total: 1_200,
      succeeded: 4,
      failed: 1,
      spentE4: 2_000,
      perItemE4: 500,
      left: 1_195,
      restE4: 5_975_000,
      beforeE4: 6_000_000,
      steps: 1,
      budgetE4: null,
    };
    const sample = { code: 'sample_done' as const, message: 'Sample done.', figures };
    const de = plain(inLanguage('de', 'de-DE', () => pauseCodeLine(sample, null)));
    expect(de).toMatch(/^Die Stichprobe ist fertig: 5 von 1\.200 Elementen \(4 erfolgreich, 1 fehlgeschlagen\), 0,20 € ausgegeben, 0,05 € pro Element\./);
    expect(de).toContain('Die übrigen 1.195 kosten etwa 597,50 € (vorher geschätzt: 600,00 € für alle).');
    const en = inLanguage('en', 'en-US', () => pauseCodeLine(sample, null));
    expect(en).toContain('The other 1,195 would cost about €597.50 (estimated before: €600.00 for all).');
    const pipeline = { ...sample, figures: { ...figures, perItemE4: null, steps: 3, budgetE4: 12_345_000 } };
    expect(plain(inLanguage('de', 'de-DE', () => pauseCodeLine(pipeline, null)))).toMatch(/durch alle 3 Schritte.*ein Budget von 1\.234,50 € deckt das ab/);
    const none = { ...sample, figures: { ...figures, succeeded: 0, failed: 5, perItemE4: null } };
    expect(inLanguage('en', 'en-US', () => pauseCodeLine(none, null))).toMatch(/none succeeded, so there is no measured cost/);
  });
});

describe("a pause in the batch page's header", () => {
  const pause = (code: PauseReason) => ({ kind: 'budget' as const, reason: '', code, until: null });
  it("says a short complete sentence, the whole line (a CSV row in the window's words) under Details", () => {
    const budget = { ...PAUSES.budget_reached, standing: { ...standing, next: 'kunden-november.csv row 107' } };
    const de = inLanguage('de', 'de-DE', () => pauseHeader(pause(budget)));
    expect(de.short.replace(/\u00a0/g, ' ')).toBe('Das Budget von 5,00 € ist erreicht: 4,90 € ausgegeben.');
    expect(de.more).toContain('(kunden-november.csv, Zeile 107)');
    expect(de.more).not.toMatch(/\brow\b/);
    expect(de.english).toBeNull();
    for (const code of PAUSE_CODES) {
      for (const lng of ['en', 'de'] as const) {
        const { short } = inLanguage(lng, lng === 'de' ? 'de-DE' : 'en-GB', () => pauseHeader(pause(PAUSES[code])));
        // Short enough for one line beside its control, and a sentence.
        expect(short.length, `${lng} ${code}: ${short}`).toBeLessThanOrEqual(70);
        expect(short).toMatch(/[.)]$/);
      }
    }
  });
  it("keeps a pause stored before codes: the kind's words, the engine's English as detail", () => {
    const old = pauseHeader({ kind: 'budget', reason: 'The budget of €5.0000 would be crossed.', code: null, until: null });
    expect(old.english).toBe('The budget of €5.0000 would be crossed.');
    expect(old.more).toBeNull();
  });
});

describe("a job's error in the window", () => {
  const failed = {
    state: 'failed',
    error: 'call-003.wav: to: expected a phone number in E.164 format (HTTP 422 invalid_recipient).',
    errorKind: 'invalid_request',
  } as const;
  const held = { state: 'retry_wait', error: 'held until 08:00 Europe/Berlin (quiet hours 21:00-08:00, zone column)', errorKind: null } as const;
  it("heads it with its kind in the window's language; the stored words are the detail", () => {
    expect(errorLine(failed)).toBe('The API refused this item as it was sent.');
    expect(inLanguage('de', 'de-DE', () => errorLine(failed))).toBe('Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.');
    expect(inLanguage('de', 'de-DE', () => errorLine(held))).toBe('Absichtlich zurückgehalten (Ruhezeiten oder Mindestabstand je Empfänger).');
  });
  it("a message not sent to someone who asked to be forgotten says so from the engine's field, in either language", () => {
    const words = 'not sent: a recipient who asked to be forgotten (stays opted out), on the opt-out list since 2026-11-03.';
    const skipped = { state: 'cancelled', error: words, errorKind: null, note: { code: 'opted_out', forgotten: true } } as const;
    expect(errorLine(skipped)).toBe('Not sent: a recipient who asked to be forgotten (stays opted out).');
    expect(inLanguage('de', 'de-DE', () => errorLine(skipped))).toBe('Nicht gesendet: eine Person, die verlangt hat, vergessen zu werden (bleibt gesperrt).');
    // The words alone decide nothing in the window: without the field it is an opt-out like any other.
    expect(errorLine({ ...skipped, note: { code: 'opted_out', forgotten: false } })).toBe('Not sent: the recipient is on the opt-out list.');
  });
  it('an error stored without a kind is shown as it was stored', () => {
    expect(errorLine({ state: 'failed', error: 'gone', errorKind: null })).toBe('Gone');
    expect(errorLine({ state: 'succeeded', error: null, errorKind: null })).toBe('');
  });
});
