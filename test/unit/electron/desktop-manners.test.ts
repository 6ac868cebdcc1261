// The desktop's decisions from the engine's snapshots: what is announced (and only when the
// window is not looked at), the taskbar progress of what sends, and keeping the computer awake.
import { describe, expect, it } from 'vitest';
import { DesktopManners, noticeFor, pauseNeedsYou, type Effect } from '../../../src/main/electron/desktop-manners';
import { PAUSE_KINDS, emptyCounts, type BatchSummary } from '../../../src/shared/domain';
import { batchSummary } from '../../helpers/batch-summary';

const running = { state: 'running', reason: null } as const;
const idle = { state: 'idle', reason: null } as const;

function batch(id: string, over: Partial<BatchSummary> & { done?: number; failed?: number; review?: number }): BatchSummary {
  const { done = 0, failed = 0, review = 0, ...rest } = over;
  return batchSummary({
    id,
    name: `Batch ${id}`,
    status: 'running',
    total: 10,
    counts: { ...emptyCounts(), succeeded: done, failed, queued: 10 - done - failed, needs_review: review },
    cost: { estimated: 1000, spent: 1234, budget: null, currency: 'EUR', scale: 10_000 },
    ...rest,
  });
}

const notices = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'notify' ? [e.notice] : []));
const progress = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'progress' ? [e.fraction] : []));
const awake = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'keep_awake' ? [e.on] : []));

describe('DesktopManners', () => {
  it('follows the progress of everything sending, and keeps the computer awake only meanwhile', () => {
    const m = new DesktopManners();
    expect(m.seed([], idle)).toEqual([]);
    expect(m.runnerChanged(running)).toEqual([]);
    const first = m.snapshot([batch('a', { done: 2 }), batch('b', { done: 0, total: 30, counts: { ...emptyCounts(), queued: 30, needs_review: 0 } })], true);
    expect(progress(first)).toEqual([0.05]);
    expect(awake(first)).toEqual([true]);
    expect(m.sending()).toEqual({ batches: 2, done: 2, total: 40, fraction: 0.05 });
    // Unchanged progress is not said again.
    expect(m.snapshot([batch('a', { done: 2 })], true)).toEqual([]);
    const end = m.snapshot(
      [batch('a', { done: 10, status: 'done' }), batch('b', { status: 'paused', pause: { kind: 'user', reason: 'Paused by you.', until: null, code: null } })],
      true,
    );
    expect(progress(end)).toEqual([-1]);
    expect(awake(end)).toEqual([false]);
    expect(m.sending()).toBeNull();
  });

  it('counts nothing as sending while the runner is not running (another process holds the data folder)', () => {
    const m = new DesktopManners();
    expect(progress(m.seed([batch('a', { done: 5 })], { state: 'blocked', reason: 'another batchdesk run' }))).toEqual([]);
    expect(m.sending()).toBeNull();
    expect(m.runnerChanged(running)).toEqual([
      { kind: 'progress', fraction: 0.5 },
      { kind: 'keep_awake', on: true },
    ]);
    expect(m.runnerChanged({ state: 'stopped', reason: 'The disk is full.' })).toEqual([
      { kind: 'progress', fraction: -1 },
      { kind: 'keep_awake', on: false },
    ]);
  });

  it('announces a finished batch only when the window is not in focus', () => {
    const m = new DesktopManners();
    m.seed([batch('a', { done: 9 }), batch('b', { done: 9 })], running);
    expect(notices(m.snapshot([batch('a', { done: 10, status: 'done' })], true))).toEqual([]);
    expect(notices(m.snapshot([batch('b', { done: 8, failed: 2, status: 'done_with_failures' })], false))).toEqual([
      { batchId: 'b', review: false, title: 'Finished: Batch b', body: '8 succeeded, 2 failed; €0.12 spent.' },
    ]);
    // Once: a later snapshot of the finished batch says nothing.
    expect(notices(m.snapshot([batch('b', { done: 8, failed: 2, status: 'done_with_failures' })], false))).toEqual([]);
  });

  it('does not announce batches that had ended before the app started', () => {
    const m = new DesktopManners();
    m.seed([batch('old', { done: 10, status: 'done' })], idle);
    expect(notices(m.snapshot([batch('old', { done: 10, status: 'done' })], false))).toEqual([]);
  });

  it('announces a batch first seen finished (it finished between two snapshots)', () => {
    const m = new DesktopManners();
    m.seed([], running);
    expect(notices(m.snapshot([batch('quick', { done: 10, status: 'done' })], false))).toHaveLength(1);
  });

  it('opens the review list when a finished OCR batch has invoices that need review', () => {
    const [n] = notices(new DesktopManners().snapshot([batch('ocr', { done: 10, status: 'done', review: 3 })], false));
    expect(n).toEqual({
      batchId: 'ocr',
      review: true,
      title: 'Finished: Batch ocr',
      body: '10 succeeded; €0.12 spent. 3 invoices need review: click to see them.',
    });
  });

  it('says once that invoices need review while the batch still reads', () => {
    const m = new DesktopManners();
    m.seed([batch('ocr', { done: 2 })], running);
    const [n] = notices(m.snapshot([batch('ocr', { done: 4, review: 1 })], false));
    expect(n?.title).toBe('Invoices need review: Batch ocr');
    expect(n?.review).toBe(true);
    expect(n?.body).toMatch(/^1 invoice failed a check/);
    expect(notices(m.snapshot([batch('ocr', { done: 6, review: 2 })], false))).toEqual([]);
  });

  it("announces pauses that need the user, with what to do, and not the user's own pause", () => {
    const m = new DesktopManners();
    m.seed([batch('a', { done: 3 }), batch('b', { done: 3 })], running);
    const paused = (id: string, kind: (typeof PAUSE_KINDS)[number]) =>
      batch(id, { done: 3, status: 'paused', pause: { kind, reason: "the engine's words", until: null, code: null } });
    expect(notices(m.snapshot([paused('a', 'budget')], false))).toEqual([
      { batchId: 'a', review: false, title: 'Paused: Batch a', body: 'Its next item would cross its budget. Open it to resume with a higher budget.' },
    ]);
    expect(notices(m.snapshot([paused('b', 'user')], false))).toEqual([]);
    // A pause of another kind after the first is said too.
    expect(notices(m.snapshot([paused('a', 'auth')], false))[0]?.body).toContain('Replace it under Keys & rates');
  });

  it('leaves a pipeline step with steps after it to the last step', () => {
    const m = new DesktopManners();
    const step = (id: string, next: string[], status: BatchSummary['status']) =>
      batch(id, { done: 10, status, pipeline: { id: 'p1', step: next.length === 0 ? 2 : 1, parent: next.length === 0 ? 'p1' : null, next, awaiting: 0 } });
    expect(notices(m.snapshot([step('p1', ['p2'], 'done')], false))).toEqual([]);
    expect(notices(m.snapshot([step('p2', [], 'done')], false))[0]?.title).toBe('Pipeline finished: Batch p2');
  });
});

describe('noticeFor / pauseNeedsYou', () => {
  it('has words for every pause that needs the user, each naming what to do', () => {
    for (const kind of PAUSE_KINDS) {
      const words = pauseNeedsYou(kind);
      if (kind === 'user' || kind === 'server_wait') expect(words).toBeNull();
      else expect(words).toMatch(/(Open it|resume|Resume|Replace|Add one|Raise)/);
    }
  });

  it('says nothing for a cancelled batch', () => {
    expect(noticeFor({ status: 'running', pauseKind: null, needsReview: 0 }, batch('c', { status: 'cancelled' }))).toBeNull();
  });
});
