// The Batches table's rules: filter by status, capability and words of the name or id; sort by any
// column either way, newest first on ties; batches waiting for the user come open.
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, needsAction, reviewCount, reviewText, tableRows } from '../../../src/renderer/src/batches/batch-table-model';
import { emptyCounts, type BatchSummary } from '../../../src/shared/domain';
import { batchSummary } from '../../helpers/batch-summary';

const batch = (id: string, over: Partial<BatchSummary>): BatchSummary => batchSummary({ id, name: id, ...over });

const all = [
  batch('b1', {
    name: 'October invoices',
    created_at: '2026-11-01T00:00:00.000Z',
    cost: { estimated: 0, spent: 300, budget: null, currency: 'EUR', scale: 10_000 },
  }),
  batch('b2', {
    name: 'Support calls week 42',
    capability: 'transcribe',
    status: 'running',
    created_at: '2026-11-02T00:00:00.000Z',
    counts: { ...emptyCounts(), succeeded: 5, needs_review: 0 },
  }),
  batch('b3', { name: 'Held back notices', capability: 'channel', status: 'paused', created_at: '2026-11-03T00:00:00.000Z' }),
  batch('b4', {
    name: 'november invoices',
    status: 'pending',
    created_at: '2026-11-04T00:00:00.000Z',
    cost: { estimated: 0, spent: 100, budget: null, currency: 'EUR', scale: 10_000 },
  }),
];
const ids = (rows: BatchSummary[]): string[] => rows.map((b) => b.id);

describe('batch table rows', () => {
  it('newest first by default', () => {
    expect(ids(tableRows(all, DEFAULT_QUERY))).toEqual(['b4', 'b3', 'b2', 'b1']);
  });

  it('filters by words of the name (any case) or an id prefix, by status and by capability', () => {
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, text: 'INVOICES' }))).toEqual(['b4', 'b1']);
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, text: 'b2' }))).toEqual(['b2']);
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, status: 'paused' }))).toEqual(['b3']);
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, capability: 'ocr', text: 'october' }))).toEqual(['b1']);
  });

  it('sorts by name, status, progress and spend, both ways', () => {
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, sort: 'name', descending: false }))).toEqual(['b3', 'b4', 'b1', 'b2']);
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, sort: 'status', descending: false }))).toEqual(['b3', 'b4', 'b2', 'b1']);
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, sort: 'progress', descending: true }))[0]).toBe('b2');
    expect(ids(tableRows(all, { ...DEFAULT_QUERY, sort: 'spent', descending: true }))).toEqual(['b1', 'b4', 'b3', 'b2']);
  });

  it('batches waiting for Start are the ones shown open; a paused one stays a row', () => {
    expect(all.filter(needsAction).map((b) => b.id)).toEqual(['b4']);
  });

  it('counts the invoices that need review, for invoice batches only', () => {
    expect(reviewCount(batch('o', { counts: { ...emptyCounts(), succeeded: 4, needs_review: 3 } }))).toBe(3);
    expect(reviewCount(batch('o', {}))).toBe(0);
    expect(reviewCount(batch('t', { capability: 'transcribe', counts: { ...emptyCounts(), succeeded: 4, needs_review: 3 } }))).toBe(0);
    expect([1, 3, 1200].map(reviewText)).toEqual(['1 needs review', '3 need review', '1,200 need review']);
  });
});
