// Ctrl-C stops `batchdesk run` within seconds whatever the API does: a request that never gets an
// answer, an answer that trickles, items held back by a 429's wait. What was in flight or waiting
// goes back to the queue with its idempotency key, and the next run sends it with that same key.
// No clock is read to judge it: each case's API holds the run at least 2 minutes (a request with
// no answer until the idle timeout cuts it, a trickle until the 5-minute deadline, a 429's 300 s
// wait), beyond each case's timeout, so a stop that waited for it never exits in time, however
// loaded the machine; how long the stop took is printed.
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BatchSummary } from '../../src/shared/domain';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { channelOk, json, startHostileServer, type Answer, type HostileServer } from '../helpers/hostile-server';

const MESSAGES = join(process.cwd(), 'resources', 'samples', 'messages.csv');
const KEY = { BATCHDESK_CHANNEL_KEY: 'ck_live_5e4d3c2b1a09f8e7d6c5b4a392817060' };
const StatusJson = z.object({ batches: z.array(BatchSummary) });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(ok: () => boolean, ms = 60_000): Promise<void> {
  const by = Date.now() + ms;
  while (!ok() && Date.now() < by) await sleep(50);
  if (!ok()) throw new Error('timed out waiting for the server to be asked');
}

/** A body that never ends, a little faster than the minimum rate (256 bytes a second), so only the 5-minute deadline would cut it. */
const trickle: Answer = (_q, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const t = setInterval(() => res.write(' '.repeat(40)), 100);
  res.on('close', () => clearInterval(t));
};

/**
 * How long a case may take: less than the shortest hold above (120 s, a request that gets no
 * answer), so a stop that waited fails; its own steps take about 20 s on a machine at load 25.
 */
const CASE_MS = 100_000;

describe('Ctrl-C during batchdesk run', () => {
  const dir = tempDir('batchdesk-interrupt-');
  const servers: HostileServer[] = [];
  let n = 0;
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  afterAll(() => dir.cleanup());

  // `resend`: the items asked are due again at once (not after a wait the API asked for).
  const cases: { name: string; answer: Answer; resend: boolean }[] = [
    { name: 'an API that never answers', answer: () => undefined, resend: true },
    { name: 'an answer that trickles forever, just above the minimum rate', answer: trickle, resend: true },
    // The first four get 429 with a 300 s wait (the longest held in the key's gate rather than
    // pausing the batch); the next items are claimed and held there (before: the stop waited for
    // the gate to open).
    {
      name: 'items held back by a 429 wait',
      answer: (_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '300' }),
      resend: false,
    },
  ];

  for (const c of cases) {
    it(
      `stops within seconds against ${c.name}; the items go back with their keys`,
      async () => {
        const data = ['--data-dir', join(dir.path, `data-${++n}`)];
        const created = await runCli(['batch', 'create', 'channel', MESSAGES, ...data]);
        expect(created.code, created.stderr).toBe(0);
        const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
        const hostile = await startHostileServer(c.answer);
        servers.push(hostile);
        const run = startCli(['run', id, '--api-url', hostile.url, ...data], KEY);
        await until(() => hostile.requests.length >= 4);
        // Let the answers (or their absence) take effect: 429s hold the gate, requests hang.
        await sleep(1_000);
        const stopped = Date.now();
        run.child.kill('SIGINT');
        const done = await run.done;
        const took = Date.now() - stopped;
        expect(done.code, done.stderr).toBe(130);
        expect(done.stderr).toContain('Stopping: in-flight items are put back in the queue (same idempotency keys)');

        const after = StatusJson.parse(JSON.parse((await runCli(['status', id, '--json', ...data])).stdout)).batches[0];
        expect(after?.counts.running).toBe(0);
        expect((after?.counts.queued ?? 0) + (after?.counts.retry_wait ?? 0)).toBe(6);

        console.log(`[interrupt] ${c.name}: exited ${took} ms after SIGINT`);
        if (!c.resend) return;
        // The API answers again: the next run sends every item, those asked before with the keys
        // they were asked with.
        const asked = hostile.requests.length;
        const before = new Set(hostile.requests.map((q) => String(q.headers['idempotency-key'])));
        hostile.answer(channelOk);
        const again = await runCli(['run', id, '--api-url', hostile.url, ...data], KEY);
        expect(again.code, again.stderr).toBe(0);
        const now = new Set(hostile.requests.slice(asked).map((q) => String(q.headers['idempotency-key'])));
        expect(now.size).toBe(6);
        for (const k of before) expect(now.has(k)).toBe(true);
      },
      CASE_MS,
    );
  }
});
