// Team mode's promise under crashes: three worker processes share one 3,000-message batch in a
// PostgreSQL store while the API drops some answers after delivering; one worker is SIGKILLed
// at random moments, again and again, and restarted. Every customer still gets each message
// exactly once and every job ends succeeded in the shared store. Real processes throughout: the
// built CLI, a throw-away PostgreSQL cluster, the sandbox on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type CliResult } from '../helpers/cli';
import { createSharedBatch, exitedWithin, jobStates, query, startWorker, storeKeys, writeChannelCsv, type Worker, useTeamRig } from '../helpers/team-run';

const ROWS = 3_000;

describe('team: three workers, one killed again and again, exactly-once delivery', () => {
  const rig = useTeamRig('batchdesk-team-kill-', { seed: 12 });

  it(`delivers ${ROWS} messages exactly once across three workers and repeated SIGKILLs`, async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('kill');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    const id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'team kill test' });

    // Hostile: some answers are lost after the message went out, some requests fail before any
    // work, and a little latency so a kill finds requests in flight.
    await admin.setFaults({ latency_ms: 15, drop_after_work_rate: 0.1, error_rate: 0.05 });

    const opts = (n: number) => ({ storeUrl, dataDir: join(dir.path, `worker-${n}`), sb });
    const start = (n: number): Worker => {
      const w = startWorker(opts(n));
      live.push(w);
      return w;
    };
    // The other two join after the victim's second kill: on a loaded machine a restart takes
    // seconds, and three workers from the start could finish the batch before three kills landed.
    const others: Worker[] = [];
    let victim = start(0);

    // Kill worker 0 at random moments once it is sending (it holds leases: however slow the
    // machine starts a process, the kill lands mid-run); a kill counts when it left jobs leased
    // to the dead process while the batch was unfinished. Restart it each time.
    const delays: number[] = [];
    let kills = 0;
    const holding = async (tag: string): Promise<number> => {
      const [r] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = $1 AND state = 'running' AND leased_by = $2`, [
        id,
        tag,
      ]);
      return Number(r?.n ?? 0);
    };
    for (let round = 0; round < 12 && kills < 4; round++) {
      const sending = Date.now() + 120_000;
      while ((await holding(victim.tag)) === 0 && Date.now() < sending && !(await exitedWithin(victim, 50)));
      const delay = Math.floor(Math.random() * 600);
      delays.push(delay);
      if (await exitedWithin(victim, delay)) break;
      victim.child.kill('SIGKILL');
      const r = await victim.done;
      expect(r.signal).toBe('SIGKILL');
      const held = await holding(victim.tag);
      const [left] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = $1 AND state <> 'succeeded'`, [id]);
      if (held > 0 && Number(left?.n ?? 0) > 0) kills++;
      if (round === 1) others.push(start(1), start(2));
      victim = start(0);
    }
    expect(kills, `kill delays after the worker began sending (ms): ${delays.join(', ')}`).toBeGreaterThanOrEqual(3);

    // Everyone finishes on their own: nothing left to anyone. A generous deadline, not a timing.
    const deadline = Date.now() + 360_000;
    const finals: CliResult[] = [];
    for (const w of [...others, victim]) {
      const left = Math.max(1, deadline - Date.now());
      const exited = await exitedWithin(w, left);
      expect(exited, `worker ${w.tag} still running after the deadline`).toBe(true);
      finals.push(await w.done);
    }
    for (const f of finals) expect(f.code, f.stderr).toBe(0);

    // The sandbox's ledger: every message delivered once, to its own recipient, with the store's keys.
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(ROWS);
    const ledgerKeys = new Set(ledger.map((d) => d.idempotency_key));
    expect(ledgerKeys.size).toBe(ROWS);
    expect(new Set(ledger.map((d) => d.to)).size).toBe(ROWS);
    for (const d of ledger) expect(d.text).toMatch(/^Hello Customer \d+, your code is \d+\.$/);
    expect(ledgerKeys).toEqual(await storeKeys(storeUrl, id));

    // The shared store agrees, and the kills and lost answers left their traces in the attempts.
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);
    const [att] = await query<{ interrupted: string; replayed: string; in_flight: string; workers: string }>(
      storeUrl,
      `SELECT COUNT(*) FILTER (WHERE a.outcome = 'interrupted') AS interrupted,
              COUNT(*) FILTER (WHERE a.replayed = 1) AS replayed,
              COUNT(*) FILTER (WHERE a.outcome = 'in_flight') AS in_flight,
              COUNT(DISTINCT a.worker) AS workers
         FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1`,
      [id],
    );
    expect(Number(att?.interrupted)).toBeGreaterThan(0);
    expect(Number(att?.replayed)).toBeGreaterThan(0);
    // A worker killed between a job's outcome and its attempt's end left that attempt open; its
    // restarted successor closed it as interrupted (releaseWorkers): none is left in flight.
    expect(Number(att?.in_flight)).toBe(0);
    // Three workers plus each restarted one sent something.
    expect(Number(att?.workers)).toBeGreaterThanOrEqual(3);
  }, 720_000);
});
