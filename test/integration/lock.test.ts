// One running engine per data folder: a second runner is refused while the first is running,
// so start-up recovery never requeues jobs a live engine is still sending.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EngineBusyError } from '../../src/main/engine/engine-lock';
import { expectLedgerExactlyOnce, jobsOf, startHarness, whenChanged, writeMessagesCsv, type Harness } from './harness';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./fixtures/second-runner.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts a channel batch that keeps running until released: an endless 429 storm makes every
 * request come back rate limited (429s never use up tries), so run() stays busy.
 */
async function startBusyRun(h: Harness): Promise<{ id: string; running: Promise<void>; release: () => Promise<void> }> {
  const csv = await writeMessagesCsv(h.dir, 8);
  const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
  await h.admin.setFaults({ rate_limit_storm: { remaining: 1_000_000, retry_after_ms: 100 } });
  const running = h.run();
  const limited = h.engine.db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE http_status = 429`);
  await whenChanged(h.engine, () => (limited.get() as { n: number }).n > 0);
  return {
    id,
    running,
    release: async () => {
      await h.admin.setFaults({ rate_limit_storm: null });
      await running;
    },
  };
}

/** The storm must keep the run busy: no 429 budget pause while the test looks. */
const ENDLESS_429S = { config: { serverWait: { minMs: 5, inlineMaxMs: 300_000, maxMs: 86_400_000, rateLimitedBudget: 1_000_000, rateLimitedCapMs: 50 } } };

describe('engine lock', () => {
  it('refuses a second runner in another process while the first is running', async () => {
    const h = await startHarness(ENDLESS_429S);
    const busy = await startBusyRun(h);
    try {
      expect(existsSync(join(h.dir, 'engine-lock.db'))).toBe(true);
      expect(JSON.parse(readFileSync(join(h.dir, 'engine-lock.owner.json'), 'utf8'))).toMatchObject({ pid: process.pid });
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, h.dir], { cwd: ROOT, timeout: 30_000 });
      const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { busy: boolean; name: string | null; message: string | null };
      expect(out).toMatchObject({ busy: true, name: 'EngineBusyError' });
      expect(out.message).toContain(`process ${process.pid}`);
      expect(out.message).toContain(h.dir);
      // The refused runner touched nothing: no job was "recovered" from under the live engine.
      const interrupted = h.engine.db.prepare(`SELECT COUNT(*) AS n FROM job_events WHERE reason LIKE 'interrupted%'`).get() as { n: number };
      expect(interrupted.n).toBe(0);
      // The first engine still holds the lock.
      expect(JSON.parse(readFileSync(join(h.dir, 'engine-lock.owner.json'), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await busy.release();
    }
    const jobs = jobsOf(h.engine, busy.id);
    expect(jobs.every((j) => j.state === 'succeeded' && j.tries === 1)).toBe(true);
    await expectLedgerExactlyOnce(h.admin, jobs);
  });

  // Regression: a lock file holding this process's own pid was once taken as stale, so a second
  // engine in the same process (the desktop shell and the browser host share one) recovered the
  // first one's in-flight jobs while they were still being sent.
  it('refuses a second Engine on the same data folder in the same process while the first is running', async () => {
    const h = await startHarness(ENDLESS_429S);
    const busy = await startBusyRun(h);
    try {
      const second = h.openSecondEngine();
      // An aborted signal: if the lock were (wrongly) granted, the second runner would still send nothing.
      await expect(second.run(h.target, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(EngineBusyError);
    } finally {
      await busy.release();
    }
  });
});
