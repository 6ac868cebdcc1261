// A sample run of a shared batch (`batch create --sample 5 --store URL`): two workers send only the
// sample items, the batch pauses for every worker with what the sample cost per item and the
// projection for the rest, and once resumed the rest is sent. Every message once.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { jobStates, keyEnv, query, startWorker, writeChannelCsv, useTeamRig } from '../helpers/team-run';

const ROWS = 30;
const SAMPLE = 5;

describe('team: a sample run of a shared batch', () => {
  const rig = useTeamRig('batchdesk-team-sample-', { seed: 13 });

  it('sends the sample only, pauses every worker with the projection, then sends the rest once resumed', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('sample');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    const created = await runCli(
      [
        'batch',
        'create',
        'channel',
        csv,
        '--name',
        'sampled',
        '--sample',
        String(SAMPLE),
        '--store',
        storeUrl,
        '--data-dir',
        join(dir.path, 'planner'),
        '--api-url',
        sb.url,
      ],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout).toContain(`Sample first: ${SAMPLE} item(s)`);
    expect(created.stdout).toContain(`batchdesk resume ${id} --store ${storeUrl}`);
    const [marked] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = $1 AND sample = 1`, [id]);
    expect(Number(marked?.n)).toBe(SAMPLE);

    // Two workers of everything: they start the batch, send its sample, and stop when it pauses.
    const workers = [0, 1].map((n) => startWorker({ storeUrl, dataDir: join(dir.path, `worker-${n}`), sb }));
    live.push(...workers);
    for (const w of workers) {
      const r = await w.done;
      expect(r.code, r.stderr).toBe(3);
    }
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(SAMPLE);
    const sampled = await query<{ idempotency_key: string }>(storeUrl, `SELECT idempotency_key FROM jobs WHERE batch_id = $1 AND sample = 1`, [id]);
    expect(new Set(ledger.map((d) => d.idempotency_key))).toEqual(new Set(sampled.map((r) => r.idempotency_key)));
    const [paused] = await query<{ status: string; pause_kind: string; pause_reason: string; sampling: number }>(
      storeUrl,
      `SELECT status, pause_kind, pause_reason, sampling FROM batches WHERE id = $1`,
      [id],
    );
    expect(paused).toMatchObject({ status: 'paused', pause_kind: 'sample', sampling: 0 });
    expect(paused?.pause_reason).toContain(`Sample done: ${SAMPLE} of ${ROWS} items (${SAMPLE} succeeded, 0 failed)`);
    expect(paused?.pause_reason).toContain(`the other ${ROWS - SAMPLE} would cost about €0.1250`);
    const status = await runCli(['status', id, '--store', storeUrl, '--data-dir', join(dir.path, 'planner')]);
    expect(status.stdout).toContain('Sample done');

    // Resumed from any computer: the rest goes, each message once.
    const resumed = await runCli(['resume', id, '--yes', '--store', storeUrl, '--data-dir', join(dir.path, 'planner')]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const rest = startWorker({ storeUrl, dataDir: join(dir.path, 'worker-0'), sb });
    live.push(rest);
    const r = await rest.done;
    expect(r.code, r.stderr).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);
    const all = await admin.ledger();
    expect(all).toHaveLength(ROWS);
    expect(new Set(all.map((d) => d.idempotency_key)).size).toBe(ROWS);
  }, 90_000);
});
