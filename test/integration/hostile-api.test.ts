// The hostile-API cases (test/conformance/hostile-cases.ts) on this data folder's SQLite file, as
// the local runner sends (the same cases run by a team worker on PostgreSQL in
// hostile-api-pg.test.ts), and what only one computer has: the batch saying it waits for a slow
// API, or that the API keeps answering 429 or trickling (the runner's own state), and the SQLite
// file's size after a huge body.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileCases, hostileRigs } from '../conformance/hostile-cases';
import { openLocalRig } from './store-rigs';
import { writeMessagesCsv } from './harness';
import { made } from '../conformance/store-rig';
import { json, type Answer } from '../helpers/hostile-server';
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';

hostileCases('local runner, SQLite', openLocalRig);

/** Asks until the batch shows something: as long as the run takes on a loaded machine (the test's timeout bounds it). */
async function untilSeen<T>(look: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const seen = await look();
    if (seen !== null) return seen;
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('one computer against a hostile API', () => {
  const rig = hostileRigs(openLocalRig);

  it('while an answer is slow to come, the batch says it is waiting for the API', async () => {
    const { r } = await rig(() => undefined /* never answers */, { slowAnswerMs: 200, deadline: { baseMs: 60_000, uploadBytesPerSecond: 1_000_000 } });
    const csv = await writeMessagesCsv(r.dir, 2);
    const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
    const ac = new AbortController();
    const running = r.run(id, ac.signal);
    const seen = await untilSeen(async () => (await r.summary(id)).waiting?.reason ?? null);
    ac.abort();
    await running;
    expect(seen).toMatch(/waiting for the API to answer \(2 requests in flight, the oldest for \d+ s\)/);
  });

  // What the API keeps doing, said while it happens (the progress line and the window read it):
  // the runner's own knowledge, so only on the computer that sends.
  const troubles: { kind: string; answer: Answer; config: Partial<RunnerConfig>; words: RegExp }[] = [
    {
      kind: 'rate_limited',
      answer: (_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' }),
      config: { serverWait: { minMs: 20, inlineMaxMs: 60_000, maxMs: 86_400_000, rateLimitedBudget: 1_000, rateLimitedCapMs: 40 } },
      words:
        /^the API keeps answering 429 \(request limit reached\): \d+ answers without a result since \d\d:\d\d:\d\d\. If another program uses the same key, lower the request limit \(in the window: Keys & rates; on the command line: `batchdesk config set rpm N`\)\. An item that keeps waiting fails after 3 min \(setting max_wait_minutes\)\.$/,
    },
    {
      kind: 'slow_answer',
      answer: (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(t));
      },
      config: { minRate: { bytesPerSecond: 100, windowMs: 200 }, backoff: { baseMs: 5, capMs: 10, maxTries: 50 } },
      words:
        /^the API keeps trickling its answers, too slowly to wait for: \d+ answers cut since \d\d:\d\d:\d\d\. Check the API's status and any proxy in between\. An item that keeps waiting fails after 3 min \(setting max_wait_minutes\)\.$/,
    },
  ];
  for (const t of troubles) {
    it(`while the API keeps misbehaving (${t.kind}), the batch says so and how long an item may wait (a setting)`, async () => {
      const { r } = await rig(t.answer, { slowAnswerMs: 100, ...t.config });
      await r.setting('max_wait_minutes', '3');
      const csv = await writeMessagesCsv(r.dir, 2, `trouble-${t.kind}.csv`);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      const ac = new AbortController();
      const running = r.run(id, ac.signal);
      const seen = await untilSeen(async () => (await r.summary(id)).trouble);
      ac.abort();
      await running;
      expect(seen.kind).toBe(t.kind);
      expect(seen.reason).toMatch(t.words);
      // Nothing is sent any more: nothing is known of the API.
      expect((await r.summary(id)).trouble).toBeNull();
    });
  }

  it('a 50 MB body leaves the SQLite file small', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 'x');
    const { r, runBatch } = await rig((_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(big);
    });
    await runBatch(4);
    const size = (name: string): number => (existsSync(join(r.dir, name)) ? statSync(join(r.dir, name)).size : 0);
    expect(size('batchdesk.sqlite') + size('batchdesk.sqlite-wal')).toBeLessThan(5 * 1024 * 1024);
  });
});
