// The progress line says why nothing moves: a slow API, an API that keeps answering 429 or
// trickling, a retry time, a wait the API asked for.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/main/cli/progress';
import { textOut } from '../../../src/main/cli/terminal-out';
import { emptyCounts, type BatchSummary } from '../../../src/shared/domain';
import { batchSummary } from '../../helpers/batch-summary';

function batch(over: Partial<BatchSummary>): BatchSummary {
  return batchSummary({
    capability: 'channel',
    channel: 'whatsapp',
    status: 'running',
    counts: { ...emptyCounts(), queued: 2, running: 2, needs_review: 0 },
    total: 4,
    units: { name: 'messages', estimated: 4, measured: 0 },
    cost: { estimated: 200, spent: 0, budget: null, currency: 'EUR', scale: 10_000 },
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...over,
  });
}

function lines(batches: BatchSummary[]): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  let t = 0;
  const p = createProgress(textOut(out as unknown as NodeJS.WriteStream), () => (t += 3_000));
  p.update(batches);
  p.done();
  return text;
}

describe('progress line', () => {
  it('names a slow API', () => {
    expect(
      lines([batch({ waiting: { reason: 'waiting for the API to answer (2 requests in flight, the oldest for 45 s)', until: null, code: null } })]),
    ).toContain('| waiting: waiting for the API to answer (2 requests in flight, the oldest for 45 s)');
  });

  it('names the time a wait asked by the API ends', () => {
    const paused = batch({
      status: 'paused',
      pause: { kind: 'server_wait', reason: 'The API asked to wait until 23/11/2026, 14:05:00 (HTTP 429).', until: '2026-11-23T14:05:00.000Z', code: null },
    });
    expect(lines([paused])).toContain('| paused: The API asked to wait until 23/11/2026, 14:05:00');
  });

  it('gives no ETA before what is held back may go (quiet hours: hours, not seconds)', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    let t = Date.parse('2026-11-23T10:00:00.000Z');
    const p = createProgress(textOut(out as unknown as NodeJS.WriteStream), () => (t += 3_000));
    const held = { reason: 'held until 2026-11-23 20:00 Asia/Tokyo (quiet hours)', until: '2026-11-23T11:00:00.000Z', code: null };
    p.update([batch({ counts: { ...emptyCounts(), queued: 4, needs_review: 0 } })]);
    // Three sent at once, the last held for an hour: the ETA is that hour, not a second.
    p.update([batch({ counts: { ...emptyCounts(), succeeded: 3, queued: 1, needs_review: 0 }, waiting: held })]);
    p.done();
    expect(text.trim().split('\n').at(-1)).toMatch(/ETA 59:\d\d /);
  });

  it('counts cancelled items (an opt-out) among the finished ones it shows, so the numbers add up', () => {
    const optedOut = batch({ status: 'done', counts: { ...emptyCounts(), succeeded: 2, cancelled: 2, needs_review: 0 } });
    expect(lines([optedOut])).toContain('4/4 (100%)  ok 2  failed 0  cancelled 2  ');
    expect(lines([batch({})])).not.toContain('cancelled');
  });

  it('says the API keeps answering 429 (or trickling) beside the ETA, and why and what to do after it', () => {
    const reason =
      'the API keeps answering 429 (request limit reached): 14 answers without a result since 10:02:11. If another program uses the same key, lower the request limit (...). An item that keeps waiting fails after 10 min (setting max_wait_minutes).';
    const limited = batch({
      id: 'b7',
      counts: { ...emptyCounts(), retry_wait: 4, needs_review: 0 },
      trouble: { kind: 'rate_limited', reason, since: '2026-11-23T10:02:11.000Z' },
    });
    const line = lines([batch({ id: 'b6' }), limited]);
    expect(line).toContain('ETA --:-- (API keeps answering 429)');
    expect(line).toContain(`| batch b7: ${reason}`);
    const trickled = batch({ trouble: { kind: 'slow_answer', reason: 'the API keeps trickling its answers', since: '2026-11-23T10:02:11.000Z' } });
    expect(lines([trickled])).toContain('(API keeps trickling)');
  });

  it('says it is idle when there is nothing to show (a standing worker between batches), not 0/0', () => {
    expect(lines([])).toBe('idle: nothing to send now\n');
  });

  it('says nothing more while work flows', () => {
    expect(lines([batch({})])).not.toContain('|');
  });

  it('starts the rate over when the batches shown change, never a negative rate', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    let t = 0;
    const p = createProgress(textOut(out as unknown as NodeJS.WriteStream), () => (t += 3_000));
    const done = batch({ id: 'b1', status: 'done', counts: { ...emptyCounts(), succeeded: 4, needs_review: 0 } });
    p.update([done]);
    p.update([done, batch({ id: 'b2' })]);
    // b1 is finished and no longer shown (a standing worker's view).
    p.update([batch({ id: 'b2', counts: { ...emptyCounts(), succeeded: 1, queued: 3, needs_review: 0 } })]);
    p.done();
    expect(text).not.toMatch(/-\d+(\.\d+)?\/s/);
  });
});
