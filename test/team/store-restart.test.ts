// Team mode when the shared store goes away: three worker processes are sending one batch when
// the PostgreSQL server is stopped (connections cut, as a crash or an operator would) and started
// again seconds later. Each worker says the store cannot be reached, then that it is back, and
// finishes normally; every message was delivered exactly once and every job succeeded.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type CliResult } from '../helpers/cli';
import {
  createSharedBatch,
  exitedWithin,
  jobStates,
  query,
  sleep,
  startWorker,
  storeKeys,
  writeChannelCsv,
  type Worker,
  useTeamRig,
} from '../helpers/team-run';

const ROWS = 1_500;

describe('team: the shared store restarts mid-run', () => {
  const rig = useTeamRig('batchdesk-team-restart-', { seed: 3 });

  it(`carries on after a database restart: ${ROWS} messages, each once`, async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('restart');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    const id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'team restart test' });
    // Slow answers while the workers start: on a loaded machine one starts many seconds after
    // another, and the first must not send half the batch meanwhile. Then latency keeps the run
    // going for several seconds, so the restart lands in the middle of it.
    await admin.setFaults({ latency_ms: 1_000 });

    for (const n of [0, 1, 2]) live.push(startWorker({ storeUrl, dataDir: join(dir.path, `worker-${n}`), sb }));

    // Wait until every worker is sending (each has written an attempt), then pull the store away.
    // A generous bound for observed state, not a timing.
    const waitUntil = Date.now() + 180_000;
    for (;;) {
      const rows = await query<{ worker: string }>(storeUrl, `SELECT DISTINCT worker FROM attempts`);
      if (live.every((w) => rows.some((r) => r.worker === w.tag))) break;
      expect(Date.now(), 'the three workers did not all start sending').toBeLessThan(waitUntil);
      for (const w of live) expect(w.child.exitCode, `worker ${w.tag} exited before the restart`).toBeNull();
      await sleep(100);
    }
    const [before] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = $1 AND state = 'succeeded'`, [id]);
    expect(Number(before?.n)).toBeLessThan(ROWS / 2);
    await admin.setFaults({ latency_ms: 80 });
    await cluster.restart({ downMs: 3_000 });

    const deadline = Date.now() + 300_000;
    const finals: CliResult[] = [];
    for (const w of live) {
      expect(await exitedWithin(w, Math.max(1, deadline - Date.now())), `worker ${w.tag} still running after the deadline`).toBe(true);
      finals.push(await w.done);
    }
    for (const f of finals) {
      expect(f.code, f.stderr).toBe(0);
      expect(f.stderr).toContain('cannot be reached');
      expect(f.stderr).toContain('The shared store is back');
    }

    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(ROWS);
    const keys = new Set(ledger.map((d) => d.idempotency_key));
    expect(keys.size).toBe(ROWS);
    expect(new Set(ledger.map((d) => d.to)).size).toBe(ROWS);
    expect(keys).toEqual(await storeKeys(storeUrl, id));
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);
    const [open] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'in_flight'`);
    expect(Number(open?.n)).toBe(0);
  }, 540_000);
});
