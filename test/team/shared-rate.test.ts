// Team mode's request-limit promise: three worker processes send with one key limited to 600
// requests a minute (the sandbox counts them in a sliding 60 s window), sharing one token bucket
// in the store. After the first minute the API never answers 429, and the team keeps close to
// the limit: the one bucket they share runs at 98.5% of it (shared-rate.ts), and no moment of the
// run saw more requests leave than that bucket gives. Asserted by the rule, not by a rate read
// off the wall clock: a loaded machine sends slower, never faster, so the rule holds whatever the
// load (the bucket's timing itself is pg-queue-store.test.ts's, on an injected clock). It needs
// about 85 s of sending to see more than one full minute.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli';
import { createSharedBatch, exitedWithin, jobStates, query, startWorker, writeChannelCsv, useTeamRig } from '../helpers/team-run';
import { bucketFor } from '../../src/main/engine/team/shared-rate';

const RPM = 600;
/** About 85 s at the bucket's 591 a minute (shared-rate.ts). */
const ROWS = 840;
/** The windows the requests are counted in, and how long after its token a request's attempt may be noted (a loaded worker). */
const WINDOW_MS = 10_000;
const NOTED_WITHIN_MS = 2_000;

describe('team: three workers share one key limit', () => {
  /** When the sandbox answered 429 (its clock, ms). */
  const limited: number[] = [];
  const rig = useTeamRig('batchdesk-team-rate-', {
    seed: 5,
    log: (line) => {
      if (/^\S+ \/v1\/\S* 429 /.test(line)) limited.push(Date.now());
    },
  });

  it(`keeps ${RPM}/min across three workers: one bucket at 98.5% of it, never over it, no 429 after the first minute`, async () => {
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
    // A generous deadline for the workers to finish on their own, not a timing.
    const deadline = Date.now() + 420_000;
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
    const { perMinute, burst } = bucketFor(RPM);
    // Never more requests than the bucket gives: each attempt is noted just after its token was
    // taken, so the attempts begun in any window had their tokens in it or just before.
    const starts = (
      await query<{ started_at: string }>(storeUrl, `SELECT a.started_at FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1`, [id])
    )
      .map((r) => Number(r.started_at))
      .sort((a, b) => a - b);
    expect(starts.length).toBeGreaterThanOrEqual(ROWS);
    const most = Math.floor(burst + (perMinute * (WINDOW_MS + NOTED_WITHIN_MS)) / 60_000);
    let end = 0;
    for (let begin = 0; begin < starts.length; begin++) {
      while (end < starts.length && (starts[end] ?? 0) < (starts[begin] ?? 0) + WINDOW_MS) end++;
      if (end - begin > most) expect.fail(`${end - begin} requests began within ${WINDOW_MS} ms from ${starts[begin]}; the bucket gives at most ${most}`);
    }
    // So the run took as long as the bucket makes it, whichever workers sent.
    expect((starts[starts.length - 1] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(((ROWS - burst) * 60_000) / perMinute - NOTED_WITHIN_MS);

    // One bucket for the key, shared by the three, at the limit less its margin (not a share of
    // it per worker, nor one per worker).
    const buckets = await query<{ per_minute: number; burst: number }>(storeUrl, `SELECT per_minute, burst FROM rate_buckets`);
    expect(buckets).toEqual([{ per_minute: perMinute, burst }]);
    expect(perMinute).toBeGreaterThanOrEqual(RPM * 0.97);

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
  }, 480_000);
});
