// Team mode's request-limit promise: three worker processes send with one key limited to 600
// requests a minute (the sandbox counts them in a sliding 60 s window), sharing one token bucket
// in the store. After the first minute the API never answers 429, and the team keeps close to
// the limit: at least 97% of it over the steady part of the run. A generous measurement of a
// promise, not a speed test; it needs about 85 s of sending to see more than one full minute.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli';
import { createSharedBatch, exitedWithin, jobStates, query, startWorker, writeChannelCsv, type Worker, useTeamRig } from '../helpers/team-run';

const RPM = 600;
/** About 85 s at the bucket's 591 a minute (shared-rate.ts). */
const ROWS = 840;

describe('team: three workers share one key limit', () => {
  /** When the sandbox answered 429 (its clock, ms). */
  const limited: number[] = [];
  const rig = useTeamRig('batchdesk-team-rate-', {
    seed: 5,
    log: (line) => {
      if (/^\S+ \/v1\/\S* 429 /.test(line)) limited.push(Date.now());
    },
  });

  it(`keeps ${RPM}/min across three workers: no 429 after the first minute, >= 97% of the limit`, async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('rate');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    const id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'team rate test' });

    // The API's side: the channel key allows 600 requests a minute. Each worker's side: this
    // computer knows the limit (`config set rpm`), as a user of each machine would set it.
    const key = (await admin.listKeys()).find((k) => k.key === sb.channelKey);
    expect(key).toBeDefined();
    await admin.updateKey(key?.id ?? '', { rpm: RPM });
    const dirs = [0, 1, 2].map((n) => join(dir.path, `worker-${n}`));
    for (const d of dirs) {
      const set = await runCli(['config', 'set', 'rpm', String(RPM), '--data-dir', d]);
      expect(set.code, set.stderr).toBe(0);
    }
    await admin.setFaults({ latency_ms: 10 });

    for (const d of dirs) live.push(startWorker({ storeUrl, dataDir: d, sb }));
    const deadline = Date.now() + 150_000;
    const finals: CliResult[] = [];
    for (const w of live) {
      expect(await exitedWithin(w, Math.max(1, deadline - Date.now())), `worker ${w.tag} still running after the deadline`).toBe(true);
      finals.push(await w.done);
    }
    for (const f of finals) expect(f.code, f.stderr).toBe(0);

    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(ROWS);
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ROWS);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);

    const times = ledger.map((d) => Date.parse(d.at)).sort((a, b) => a - b);
    const first = times[0] ?? 0;
    const last = times[times.length - 1] ?? 0;
    // The run must be long enough to say anything about "after the first minute".
    expect(last - first).toBeGreaterThan(70_000);

    // No 429 after the first minute: as the sandbox answered them, and as the workers recorded them.
    expect(limited.filter((t) => t > first + 60_000)).toEqual([]);
    const [late] = await query<{ n: string }>(
      storeUrl,
      `SELECT COUNT(*) AS n FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1 AND a.http_status = 429 AND a.started_at > $2`,
      [id, first + 60_000],
    );
    expect(Number(late?.n)).toBe(0);

    // The delivered rate from second 5 to the end: the intervals between deliveries in that window.
    const steady = times.filter((t) => t >= first + 5_000);
    const perMinute = ((steady.length - 1) * 60_000) / ((steady[steady.length - 1] ?? 0) - (steady[0] ?? 0));
    expect(perMinute, `delivered ${perMinute.toFixed(1)}/min in the steady window; 429s: ${limited.length}`).toBeGreaterThanOrEqual(RPM * 0.97);
  }, 180_000);
});
