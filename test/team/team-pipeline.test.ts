// A pipeline in team mode (`batch create transcribe FOLDER --then text:summary --then
// crm:conversation --store URL`): planned here, moved whole to the shared store, and worked by two
// worker processes, one of them SIGKILLed while it holds items and started again, the API dropping
// some answers after the work. Each item flows into the next step in its success's transaction, so
// afterwards every recording is transcribed, summarised and logged exactly once. Then a budget
// over the whole pipeline stops every step with work left, for the team, and a raised budget
// lets it finish.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { runCli, startCli } from '../helpers/cli';
import { jobStates, keyEnv, query, recordings, startWorker, type Worker, useTeamRig, exitedWithin } from '../helpers/team-run';

const ITEMS = 40;

interface Created {
  batch: { id: string; pipeline: { step: number } | null };
  steps: { id: string; pipeline: { step: number; parent: string | null } | null; status: string }[];
  estimates: { cost: number; items: number }[];
}

describe('team: a pipeline on the shared store', () => {
  const rig = useTeamRig('batchdesk-team-pipeline-', { seed: 21 });

  it('flows every item through every step exactly once across two workers and a SIGKILL', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('pipeline');
    const calls = recordings(dir.path, 'calls', ITEMS);
    const planner = join(dir.path, 'planner');
    const created = await runCli(
      [
        'batch',
        'create',
        'transcribe',
        calls,
        '--then',
        'text:summary',
        '--then',
        'crm:conversation',
        '--json',
        '--store',
        storeUrl,
        '--data-dir',
        planner,
        '--api-url',
        sb.url,
      ],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout) as Created;
    const ids = [out.batch.id, ...out.steps.map((s) => s.id)];
    expect(ids).toHaveLength(3);
    // The steps are in the shared store, linked, empty until items flow in, and not done while the first step has work.
    expect(out.steps.map((s) => [s.pipeline?.step, s.pipeline?.parent, s.status])).toEqual([
      [2, ids[0], 'pending'],
      [3, ids[1], 'pending'],
    ]);
    const moved = await query<{ id: string; parent_id: string | null; pipeline_id: string; total: number }>(
      storeUrl,
      `SELECT id, parent_id, pipeline_id, total FROM batches ORDER BY step`,
    );
    expect(moved).toEqual([
      { id: ids[0], parent_id: null, pipeline_id: ids[0], total: ITEMS },
      { id: ids[1], parent_id: ids[0], pipeline_id: ids[0], total: 0 },
      { id: ids[2], parent_id: ids[1], pipeline_id: ids[0], total: 0 },
    ]);
    // The planner's data folder keeps none of it.
    const local = await runCli(['status', '--json', '--data-dir', planner]);
    expect((JSON.parse(local.stdout) as { batches: unknown[] }).batches).toEqual([]);

    await admin.setFaults({ latency_ms: 15, drop_after_work_rate: 0.1 });
    // One worker of everything; one named the first step, which brings the steps after it.
    const start = (n: number, batchIds: string[] = []): Worker => {
      const { child, done } = startCli(['run', ...batchIds, '--store', storeUrl, '--data-dir', join(dir.path, `worker-${n}`), '--api-url', sb.url], keyEnv(sb));
      const w = { child, done, tag: `${hostname()} ${child.pid ?? '?'}` };
      live.push(w);
      return w;
    };
    const steady = start(1);
    let victim = start(0, [ids[0] ?? '']);

    // Kill worker 0 once it holds an item of a later step (a summary or a CRM write in flight), then start it again.
    const holdsLater = async (tag: string): Promise<boolean> => {
      const [r] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = ANY($1) AND state = 'running' AND leased_by = $2`, [
        [ids[1], ids[2]],
        tag,
      ]);
      return Number(r?.n ?? 0) > 0;
    };
    const until = Date.now() + 60_000;
    while (!(await holdsLater(victim.tag)) && Date.now() < until && !(await exitedWithin(victim, 20)));
    let killed = false;
    if (victim.child.exitCode === null) {
      victim.child.kill('SIGKILL');
      expect((await victim.done).signal).toBe('SIGKILL');
      killed = true;
      victim = start(0);
    }
    expect(killed, 'the worker was killed while it held a later step').toBe(true);
    for (const w of [steady, victim]) {
      const r = await w.done;
      expect(r.code, r.stderr).toBe(0);
    }

    // Every step has every item once, each linked to the item before it.
    for (const id of ids) expect(await jobStates(storeUrl, id), id).toEqual([{ state: 'succeeded', n: ITEMS }]);
    const [unlinked] = await query<{ n: string }>(
      storeUrl,
      `SELECT COUNT(*) AS n FROM jobs c JOIN jobs p ON p.id = c.parent_job_id WHERE c.batch_id = ANY($1) AND (p.seq <> c.seq OR p.state <> 'succeeded')`,
      [[ids[1], ids[2]]],
    );
    expect(Number(unlinked?.n)).toBe(0);
    const totals = await query<{ total: number }>(storeUrl, `SELECT total FROM batches ORDER BY step`);
    expect(totals.map((t) => t.total)).toEqual([ITEMS, ITEMS, ITEMS]);
    // The API: every transcript, summary and CRM write billed once; one CRM record per call.
    const billed = Object.fromEntries((await admin.usage()).rows.map((u) => [u.rate_item, u.requests]));
    expect(billed).toMatchObject({ transcribe: ITEMS, text: ITEMS, crm: ITEMS });
    const crm = (await (await fetch(`${sb.url}/v1/crm/conversations?limit=500`, { headers: { authorization: `Bearer ${sb.apiKey}` } })).json()) as {
      data: { source: string }[];
    };
    expect(new Set(crm.data.map((r) => r.source)).size).toBe(crm.data.length);
    expect(crm.data.length).toBe(ITEMS);

    // status --store shows the chain, each step done.
    const status = await runCli(['status', '--json', '--store', storeUrl, '--data-dir', planner]);
    const statusJson = JSON.parse(status.stdout) as { store: string; batches: { id: string; status: string; pipeline: { step: number } | null }[] };
    expect(statusJson.store).toMatch(/^postgresql:\/\/\S+$/);
    const shown = statusJson.batches;
    expect(shown.map((b) => [b.id, b.status, b.pipeline?.step])).toEqual(ids.map((id, i) => [id, 'done', i + 1]));
    await admin.clearFaults();
  }, 240_000);

  it('stops every step a pipeline budget covers, for the team, and finishes once the budget is raised', async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('pipeline_budget');
    const calls = recordings(dir.path, 'budget', ITEMS);
    const planner = join(dir.path, 'planner-budget');
    const common = ['--store', storeUrl, '--data-dir', planner];
    // A budget of a hundredth of a cent: not even the first item fits (0 itself is refused as a budget).
    const created = await runCli(
      ['batch', 'create', 'transcribe', calls, '--then', 'text:summary', '--budget', '0.0001', '--json', ...common, '--api-url', sb.url],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout) as Created;
    const [first, second] = [out.batch.id, out.steps[0]?.id ?? ''];
    const w = startWorker({ storeUrl, dataDir: join(dir.path, 'worker-budget'), sb });
    live.push(w);
    expect((await w.done).code).toBe(3);
    const paused = await query<{ id: string; status: string; pause_kind: string; pause_reason: string }>(
      storeUrl,
      `SELECT id, status, pause_kind, pause_reason FROM batches ORDER BY step`,
    );
    expect(paused.map((b) => [b.id, b.status, b.pause_kind])).toEqual([
      [first, 'paused', 'budget'],
      [second, 'paused', 'budget'],
    ]);
    // The same words on every step it stopped, as on one computer.
    for (const b of paused) expect(b.pause_reason).toContain('The budget of €0.0001 (it covers this batch and the 1 step(s) after it) would be crossed');
    const [held] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM budget_holds`);
    expect(Number(held?.n)).toBe(0);

    // Raised, but still below what is left: resumed, and told at once that it pauses again, with the amount (as on one computer).
    const small = await runCli(['resume', second, '--budget', '0.0002', '--yes', ...common]);
    expect(small.code, small.stderr).toBe(0);
    expect(small.stdout).toMatch(
      new RegExp(
        `^Resumed ${second}\\. Its budget, €0\\.0002 \\(€0\\.0000 spent\\), is below what is left, so it pauses again at the next item that does not fit: \`batchdesk resume ${second} --budget \\d+\\.\\d\\d --store ${storeUrl}[^\`]*\` covers what is spent and the estimate of what is left, or \`--budget none\` removes it\\.$`,
        'm',
      ),
    );
    expect(small.stdout).not.toContain('Standing workers');

    // Raised from the second step: the budget that stopped it is the first step's; the whole pipeline resumes.
    const enough = (out.estimates.reduce((n, e) => n + e.cost, 0) * 3) / 10_000;
    const resumed = await runCli(['resume', second, '--budget', enough.toFixed(4), '--yes', ...common]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const budgets = await query<{ budget: string | null; status: string }>(storeUrl, `SELECT budget, status FROM batches ORDER BY step`);
    expect(budgets.map((b) => b.status)).toEqual(['active', 'active']);
    expect(budgets[0]?.budget).not.toBeNull();
    const again = startWorker({ storeUrl, dataDir: join(dir.path, 'worker-budget'), sb });
    live.push(again);
    const r = await again.done;
    expect(r.code, r.stderr).toBe(0);
    for (const id of [first, second]) expect(await jobStates(storeUrl, id), id).toEqual([{ state: 'succeeded', n: ITEMS }]);

    // A follow-up of the finished first step with a step after it (--from with --then): both made
    // in the store, the follow-up filled with every transcript, the step after it empty and linked;
    // a worker then sends both, each item once.
    const from = await runCli(
      [
        'batch',
        'create',
        'text',
        '--task',
        'extract',
        '--from',
        first,
        '--then',
        'crm:conversation',
        '--json',
        '--store',
        storeUrl,
        '--data-dir',
        planner,
        '--api-url',
        sb.url,
      ],
      keyEnv(sb),
    );
    expect(from.code, from.stderr).toBe(0);
    const chain = JSON.parse(from.stdout) as Created;
    const [extract, crm] = [chain.batch?.id ?? '', chain.steps[0]?.id ?? ''];
    expect(chain.steps).toHaveLength(1);
    expect(chain.estimates.map((e) => e.items)).toEqual([ITEMS, ITEMS]);
    const rows = await query<{ id: string; parent_id: string; step: number; ready: number; total: number }>(
      storeUrl,
      `SELECT id, parent_id, step, ready, total FROM batches WHERE id IN ($1, $2) ORDER BY step`,
      [extract, crm],
    );
    expect(rows).toEqual([
      { id: extract, parent_id: first, step: 2, ready: 1, total: ITEMS },
      { id: crm, parent_id: extract, step: 3, ready: 1, total: 0 },
    ]);
    const after = startCli(['run', extract, ...common, '--api-url', sb.url], keyEnv(sb));
    live.push({ ...after, tag: '' });
    const ran = await after.done;
    expect(ran.code, ran.stderr).toBe(0);
    for (const id of [extract, crm]) expect(await jobStates(storeUrl, id), id).toEqual([{ state: 'succeeded', n: ITEMS }]);
    const [links] = await query<{ n: string; parents: string }>(
      storeUrl,
      `SELECT COUNT(*) AS n, COUNT(DISTINCT c.parent_job_id) AS parents FROM jobs c JOIN jobs p ON p.id = c.parent_job_id WHERE c.batch_id = $1 AND p.batch_id = $2`,
      [crm, extract],
    );
    expect([Number(links?.n), Number(links?.parents)]).toEqual([ITEMS, ITEMS]);

    // Every step done: cancel is refused for the team as on one computer, and each stays done.
    const cancel = await runCli(['cancel', first, ...common]);
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toContain(`${first} is done: nothing is left to send, so nothing was cancelled (it stays done).`);
    expect((await query<{ status: string }>(storeUrl, `SELECT DISTINCT status FROM batches`)).map((b) => b.status)).toEqual(['active']);
  }, 120_000);
});
