// How the window words batches and jobs: a pipeline as one row whose status agrees with its steps,
// a pause without a command to type (and the budget the engine named as a control), a held
// message as held, a failed check by what failed.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pipelineRows, pipelineStatus } from '../../../src/renderer/src/batches/batch-table-model';
import { pauseLine, suggestedBudget, suggestedResume } from '../../../src/renderer/src/components/pause-words';
import { pauseSentence, type PauseReason } from '../../../src/shared/batch-reason';
import { failedCheckLabel, messageColumns, resultLine, stateWord } from '../../../src/renderer/src/jobs/job-row-words';
import type { BatchSummary } from '../../../src/shared/domain';
import { batchSummary } from '../../helpers/batch-summary';

const step = (id: string, n: number, over: Partial<BatchSummary> = {}): BatchSummary =>
  batchSummary({ id, name: id, pipeline: { id: 'p1', step: n, parent: n === 1 ? null : 'p1', next: [], awaiting: 0 }, ...over });

describe('a pipeline is one row', () => {
  it("its steps inside, its spend summed, its items the first step's", () => {
    const rows = pipelineRows([
      step('p1', 1, { status: 'done', total: 3, cost: { estimated: 10, spent: 10, budget: 800, currency: 'EUR', scale: 10_000 } }),
      step('p2', 2, { status: 'paused', total: 3, cost: { estimated: 20, spent: 5, budget: null, currency: 'EUR', scale: 10_000 } }),
      batchSummary({ id: 'alone' }),
    ]);
    expect(rows.map((r) => r.row.id)).toEqual(['p1', 'alone']);
    expect(rows[0]?.steps.map((s) => s.id)).toEqual(['p1', 'p2']);
    expect(rows[0]?.row.status).toBe('paused');
    // The pipeline's items are its first step's, not the steps' summed.
    expect(rows[0]?.row.total).toBe(3);
    expect(rows[0]?.row.cost.spent).toBe(15);
  });

  it('a tier comparison is one row, its tiers inside', () => {
    const tier = (id: string, t: BatchSummary['tier']) => batchSummary({ id, tier: t, total: 2, compare: { group: 'g1', of: 'src' } });
    const rows = pipelineRows([batchSummary({ id: 'src' }), tier('g1', 'basic'), tier('t2', 'standard'), tier('t3', 'superior')]);
    expect(rows.map((r) => [r.row.id, r.kind, r.steps.length])).toEqual([
      ['src', 'single', 1],
      ['g1', 'compare', 3],
    ]);
  });

  it('status words agree with the steps', () => {
    const s = (status: BatchSummary['status']) => batchSummary({ status });
    expect(pipelineStatus([s('done'), s('paused'), s('paused')])).toBe('paused');
    expect(pipelineStatus([s('done'), s('running')])).toBe('running');
    expect(pipelineStatus([s('done'), s('pending')])).toBe('running');
    expect(pipelineStatus([s('done'), s('done_with_failures')])).toBe('done_with_failures');
    expect(pipelineStatus([s('done'), s('done')])).toBe('done');
  });
});

describe('a pause in the window', () => {
  const budget: PauseReason = {
    code: 'budget_reached',
    budgetE4: 50_000,
    holder: 'b1',
    batch: 'b2',
    steps: 2,
    standing: { at: 'pause', spentE4: 49_000, inFlightE4: 0, next: 'call-007.wav', nextCostE4: 1_500 },
    fits: false,
    suggestedBudgetE4: 81_900,
    team: false,
  };
  const paused = (code: PauseReason | null, reason = ''): NonNullable<BatchSummary['pause']> => ({ kind: 'budget', reason, until: null, code });
  it('says why in one line, without a command to type', () => {
    const { line, detail } = pauseLine(paused(budget, pauseSentence(budget)));
    expect(line).toBe(
      'The budget of €5.00 is reached: €4.90 spent, and the next item (call-007.wav) costs about €0.15. It covers this step and 1 step after it.',
    );
    expect(line).not.toMatch(/batchdesk|`/);
    expect(detail).toBeNull();
  });
  it('a pause stored before codes: the kind in words and the words that were stored', () => {
    expect(pauseLine(paused(null, 'The budget of €5.0000 would be crossed.'))).toEqual({
      line: "Paused: the next item would cross this batch's budget.",
      detail: 'The budget of €5.0000 would be crossed.',
    });
  });
  it('offers the budget the engine named, on the batch that holds it', () => {
    expect(suggestedResume(paused(budget))).toEqual({ id: 'b1', budget: 81_900 });
    expect(suggestedResume(paused(null, 'batchdesk resume b1 --budget 8.19'))).toBeNull();
    expect(suggestedResume({ kind: 'user', reason: '', until: null, code: { code: 'user_paused', resume: 'batchdesk resume b1' } })).toBeNull();
  });
  it('without one, the estimate or a tenth more, in whole cents', () => {
    expect(suggestedBudget(50_000, 81_850, 49_000)).toBe(81_900);
    expect(suggestedBudget(50_000, 40_000, 50_000)).toBe(55_000);
  });
});

describe('job rows', () => {
  it('a held message reads as held, a retry as a retry', () => {
    expect(stateWord({ state: 'retry_wait', error: 'held until 08:00 Europe/Berlin (quiet hours 21:00-08:00, zone column)', errorKind: null })).toBe('Held');
    expect(stateWord({ state: 'retry_wait', error: 'HTTP 503', errorKind: 'transient' })).toBe('Waiting to retry');
  });
  it('a failed check by what failed', () => {
    expect(failedCheckLabel('duplicate')).toBe('Seen before');
    expect(failedCheckLabel('net_plus_vat')).toBe('Net + VAT is not gross');
  });
  it("a message's own columns, its name first", () => {
    expect(messageColumns({ order: 'A-1', first_name: 'Ada', city: 'X', a: '1', b: '2' })).toEqual({ name: 'first_name', more: ['order', 'city', 'a'] });
    expect(messageColumns(null)).toEqual({ name: null, more: [] });
  });
  describe('the result cell', () => {
    afterEach(() => vi.unstubAllGlobals());
    const nordlicht = { number: 'R-1', vendor: 'Nordlicht GmbH', gross: 14_690_600, currency: 'EUR', fromEInvoice: false, read: null };
    it("an invoice's total as the OS locale writes it, as the job dialog does, from the row's figures", () => {
      vi.stubGlobal('navigator', { languages: ['de-DE'] });
      // The engine's English line is not read: the figures are.
      expect(resultLine({ result: 'anything the engine wrote', invoice: nordlicht })).toBe('R-1 · Nordlicht GmbH · 1.469,06\u00a0€');
      expect(resultLine({ result: null, invoice: { number: null, vendor: '', gross: -125_000, currency: 'EUR', fromEInvoice: true, read: null } })).toBe(
        '-12,50\u00a0€ · read from the e-invoice',
      );
      vi.stubGlobal('navigator', { languages: ['en-GB'] });
      expect(resultLine({ result: null, invoice: { ...nordlicht, vendor: null } })).toBe('R-1 · €1,469.06');
      expect(resultLine({ result: null, invoice: { ...nordlicht, currency: 'GBP' } })).toBe('R-1 · Nordlicht GmbH · £1,469.06');
      expect(resultLine({ result: null, invoice: { ...nordlicht, currency: null, gross: 100_000_000 } })).toBe('R-1 · Nordlicht GmbH · 10,000.00');
      expect(resultLine({ result: null, invoice: { ...nordlicht, gross: null } })).toBe('R-1 · Nordlicht GmbH');
    });
    it('any other result as the engine wrote it', () => {
      vi.stubGlobal('navigator', { languages: ['de-DE'] });
      expect(resultLine({ result: 'Total 1469.06 EUR', invoice: null })).toBe('Total 1469.06 EUR');
      expect(resultLine({ result: null, invoice: null })).toBe('');
    });
  });
});
