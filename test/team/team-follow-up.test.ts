// A follow-up of a team batch (`batch create text --from ID --store URL`): made in the shared
// store from the parent's results there, with this computer's key. Made after the parent is done,
// it takes every result; made while two workers still send the parent, every item that succeeds
// afterwards flows into it on whichever worker, and the ones before are filled in, so it ends with
// each item once. A second follow-up doing the same is refused unless --allow-resend, and a batch
// of this computer's data folder is named as such. One given a time (--at) is sent from then on.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli } from '../helpers/cli';
import { jobStates, keyEnv, query, recordings, startWorker, type Worker, useTeamRig } from '../helpers/team-run';

const ITEMS = 30;

interface Created {
  batch: { id: string; total: number; pipeline: { step: number; parent: string | null } | null } | null;
  estimates: { items: number }[];
  problems: { message: string }[];
}

describe('team: a follow-up of a batch in the shared store', () => {
  const rig = useTeamRig('batchdesk-team-follow-up-', { seed: 33 });

  /** Every job of `follower` is linked to a succeeded job of `parent` with its seq, each parent job once. */
  async function linked(storeUrl: string, parent: string, follower: string): Promise<number> {
    const [r] = await query<{ n: string; parents: string }>(
      storeUrl,
      `SELECT COUNT(*) AS n, COUNT(DISTINCT c.parent_job_id) AS parents FROM jobs c JOIN jobs p ON p.id = c.parent_job_id
        WHERE c.batch_id = $1 AND p.batch_id = $2 AND p.seq = c.seq AND p.state = 'succeeded'`,
      [follower, parent],
    );
    expect(r?.n).toBe(r?.parents);
    return Number(r?.n);
  }

  /** A fresh store with a transcription batch of ITEMS recordings planned into it from `planner-NAME`: the parent. */
  async function parentBatch(name: string): Promise<{ storeUrl: string; planner: string; common: string[]; parent: string }> {
    const { cluster, sb, dir } = rig();
    const storeUrl = await cluster.freshDatabase(`follow_${name}`);
    const planner = join(dir.path, `planner-${name}`);
    const common = ['--store', storeUrl, '--data-dir', planner, '--api-url', sb.url];
    const created = await runCli(['batch', 'create', 'transcribe', recordings(dir.path, name, ITEMS), '--json', ...common], keyEnv(sb));
    expect(created.code, created.stderr).toBe(0);
    return { storeUrl, planner, common, parent: (JSON.parse(created.stdout) as Created).batch?.id ?? '' };
  }

  it('takes every result of a finished batch, once; refuses a second one doing the same, and a batch of this computer', async () => {
    const { sb, admin, dir, live } = rig();
    const { storeUrl, planner, common, parent } = await parentBatch('done');
    const first = startCli(['run', parent, ...common], keyEnv(sb));
    live.push({ ...first, tag: '' });
    expect((await first.done).code).toBe(0);

    // By a prefix of its id, as on one computer.
    const follow = await runCli(['batch', 'create', 'text', '--task', 'summary', '--from', parent.slice(0, 8), '--json', ...common], keyEnv(sb));
    expect(follow.code, follow.stderr).toBe(0);
    const out = JSON.parse(follow.stdout) as Created;
    const id = out.batch?.id ?? '';
    expect(out.batch?.pipeline).toMatchObject({ step: 2, parent });
    expect(out.batch?.total).toBe(ITEMS);
    expect(out.estimates[0]?.items).toBe(ITEMS);
    const [row] = await query<{ parent_id: string; pipeline_id: string; ready: number; key_check: string | null }>(
      storeUrl,
      `SELECT parent_id, pipeline_id, ready, key_check FROM batches WHERE id = $1`,
      [id],
    );
    expect(row).toMatchObject({ parent_id: parent, pipeline_id: parent, ready: 1 });
    // Only a check of the key goes to the store, never the key.
    expect(row?.key_check).not.toBeNull();
    expect(row?.key_check).not.toContain(sb.apiKey);
    // The planner's data folder keeps nothing of it.
    const local = await runCli(['status', '--json', '--data-dir', planner]);
    expect((JSON.parse(local.stdout) as { batches: unknown[] }).batches).toEqual([]);

    // The same follow-up again: refused, naming the one that does it.
    const again = await runCli(['batch', 'create', 'text', '--task', 'summary', '--from', parent, ...common], keyEnv(sb));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`already has a follow-up doing the same (${id}`);
    const [count] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM batches WHERE parent_id = $1`, [parent]);
    expect(Number(count?.n)).toBe(1);

    const second = startCli(['run', id, ...common], keyEnv(sb));
    live.push({ ...second, tag: '' });
    const r = await second.done;
    expect(r.code, r.stderr).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ITEMS }]);
    expect(await linked(storeUrl, parent, id)).toBe(ITEMS);
    const billed = Object.fromEntries((await admin.usage()).rows.map((u) => [u.rate_item, u.requests]));
    expect(billed).toMatchObject({ transcribe: ITEMS, text: ITEMS });

    // A batch of this computer's own data folder, named with --store: said so, with what to do.
    const own = join(dir.path, 'own');
    writeFileSync(join(dir.path, 'notes.txt'), 'A customer asks for a refund.\n');
    const mine = await runCli(['batch', 'create', 'text', join(dir.path, 'notes.txt'), '--json', '--data-dir', own], keyEnv(sb));
    expect(mine.code, mine.stderr).toBe(0);
    const localId = (JSON.parse(mine.stdout) as Created).batch?.id ?? '';
    const mixed = await runCli(['batch', 'create', 'text', '--task', 'summary', '--from', localId, '--store', storeUrl, '--data-dir', own], keyEnv(sb));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`Batch ${localId} is in this computer's data folder, not in the shared store: make its follow-up here, without --store`);

    // A follow-up with a time (--at): nothing of it is sent before; `run ID --store` waits for it.
    const at = Date.now() + 4_000;
    const timed = await runCli(
      ['batch', 'create', 'text', '--task', 'extract', '--from', parent, '--at', new Date(at).toISOString(), '--yes', ...common],
      keyEnv(sb),
    );
    expect(timed.code, timed.stderr).toBe(0);
    expect(timed.stdout).toContain("(this computer's time): nothing is sent before; a worker of the team running then");
    const timedId = /Created a follow-up of \S+ in .*: (\S+)/.exec(timed.stdout)?.[1] ?? '';
    const [slot] = await query<{ scheduled_at: string; started_at: string | null }>(storeUrl, `SELECT scheduled_at, started_at FROM batches WHERE id = $1`, [
      timedId,
    ]);
    expect(Math.abs(Number(slot?.scheduled_at) - at)).toBeLessThan(1_000);
    expect(slot?.started_at).toBeNull();
    const waiter = startCli(['run', timedId, ...common], keyEnv(sb));
    live.push({ ...waiter, tag: '' });
    expect((await waiter.done).code).toBe(0);
    expect(await jobStates(storeUrl, timedId)).toEqual([{ state: 'succeeded', n: ITEMS }]);
    const [firstSent] = await query<{ t: string }>(
      storeUrl,
      `SELECT MIN(a.started_at) AS t FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1`,
      [timedId],
    );
    expect(Number(firstSent?.t)).toBeGreaterThanOrEqual(at - 1_000);
  }, 120_000);

  it('made while two workers send the parent, ends with every item once', async () => {
    const { sb, admin, dir, live } = rig();
    const { storeUrl, common, parent } = await parentBatch('live');
    // Slow answers, so the parent is still being sent when the follow-up is made.
    await admin.setFaults({ latency_ms: 800 });
    // Two workers of everything; the parent is started by the first.
    const workers: Worker[] = [];
    const one = startCli(['run', parent, ...common.slice(0, 2), '--data-dir', join(dir.path, 'w1'), '--api-url', sb.url], keyEnv(sb));
    workers.push({ ...one, tag: '' });
    const two = startWorker({ storeUrl, dataDir: join(dir.path, 'w2'), sb });
    workers.push(two);
    live.push(...workers);
    // Some of the parent's items have succeeded, not all.
    const until = Date.now() + 60_000;
    for (;;) {
      const done = (await jobStates(storeUrl, parent)).find((s) => s.state === 'succeeded')?.n ?? 0;
      if (done >= 3 || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const follow = await runCli(['batch', 'create', 'text', '--task', 'summary', '--from', parent, '--json', ...common], keyEnv(sb));
    expect(follow.code, follow.stderr).toBe(0);
    const id = (JSON.parse(follow.stdout) as Created).batch?.id ?? '';
    const parentLeft = (await jobStates(storeUrl, parent)).filter((s) => s.state !== 'succeeded');
    expect(parentLeft.length, 'the parent was still being sent when the follow-up was made').toBeGreaterThan(0);
    await admin.clearFaults();
    // Its own worker starts it and works it to the end, while the parent finishes on the others.
    const third = startCli(['run', id, '--store', storeUrl, '--data-dir', join(dir.path, 'w3'), '--api-url', sb.url], keyEnv(sb));
    live.push({ ...third, tag: '' });
    const r = await third.done;
    expect(r.code, r.stderr).toBe(0);
    for (const w of workers) w.child.kill('SIGTERM');
    expect(await jobStates(storeUrl, parent)).toEqual([{ state: 'succeeded', n: ITEMS }]);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ITEMS }]);
    expect(await linked(storeUrl, parent, id)).toBe(ITEMS);
    const [total] = await query<{ total: number }>(storeUrl, `SELECT total FROM batches WHERE id = $1`, [id]);
    expect(total?.total).toBe(ITEMS);
  }, 120_000);
});
