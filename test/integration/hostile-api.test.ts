// The hostile-API cases (test/conformance/hostile-cases.ts) on this data folder's SQLite file, as
// the local runner sends (the same cases run by a team worker on PostgreSQL in
// hostile-api-pg.test.ts), and what only one computer has: the batch saying it waits for a slow
// API (the runner's own state), and the SQLite file's size after a huge body.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileCases, hostileRigs } from '../conformance/hostile-cases';
import { openLocalRig } from './store-rigs';
import { writeMessagesCsv } from './harness';
import { made } from '../conformance/store-rig';

hostileCases('local runner, SQLite', openLocalRig);

describe('one computer against a hostile API', () => {
  const rig = hostileRigs(openLocalRig);

  it('while an answer is slow to come, the batch says it is waiting for the API', async () => {
    const { r } = await rig(() => undefined /* never answers */, { slowAnswerMs: 200, deadline: { baseMs: 60_000, uploadBytesPerSecond: 1_000_000 } });
    const csv = await writeMessagesCsv(r.dir, 2);
    const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
    const ac = new AbortController();
    const running = r.run(id, ac.signal);
    let seen: string | null = null;
    for (let i = 0; i < 100 && seen === null; i++) {
      await new Promise((res) => setTimeout(res, 50));
      seen = (await r.summary(id)).waiting?.reason ?? null;
    }
    ac.abort();
    await running;
    expect(seen).toMatch(/waiting for the API to answer \(2 requests in flight, the oldest for \d+ s\)/);
  });

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
