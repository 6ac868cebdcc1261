// A batch summary as the engine sends it, for tests of what reads summaries (progress line, tables).
import { emptyCounts, type BatchSummary } from '../../src/shared/domain';

export function batchSummary(over: Partial<BatchSummary>): BatchSummary {
  return {
    id: 'b1',
    name: 'n',
    capability: 'ocr',
    tier: 'standard',
    channel: null,
    status: 'done',
    started: true,
    pause: null,
    waiting: null,
    trouble: null,
    counts: { ...emptyCounts(), needs_review: 0 },
    total: 10,
    options: {},
    pipeline: null,
    compare: null,
    units: { name: 'pages', estimated: 0, measured: 0 },
    sent_to: null,
    key: { label: null, client: null },
    scheduled_for: null,
    messaging: null,
    cost: { estimated: 0, spent: 0, budget: null, currency: 'EUR', scale: 10_000 },
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}
