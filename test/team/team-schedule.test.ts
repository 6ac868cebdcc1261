// A scheduled shared batch (`batch create --at TIME --store URL`): nothing is sent before its time,
// by any worker; a worker given it by name waits for it and then sends it, and a standing worker
// started for everything starts it at its time too. Each message once.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, startCli } from '../helpers/cli';
import { jobStates, keyEnv, query, sleep, writeChannelCsv, useTeamRig } from '../helpers/team-run';

const ROWS = 40;

describe('team: a scheduled shared batch', () => {
  const rig = useTeamRig('batchdesk-team-schedule-', { seed: 9 });

  it('starts at its time on the workers: one waits for it by name, a standing one picks it up', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('schedule');
    const csv = join(dir.path, 'reminders.csv');
    writeChannelCsv(csv, ROWS);
    // An hour ahead while the workers start: creating the batch, a first run and two workers took
    // over 30 s on a 2-core machine at load 30, so a time a few seconds ahead had come before
    // they were checked for sending early. It is brought forward once they wait for it (below).
    const ahead = Date.now() + 3_600_000;
    const created = await runCli(
      [
        'batch',
        'create',
        'channel',
        csv,
        '--name',
        'reminders',
        '--yes',
        '--at',
        new Date(ahead).toISOString(),
        '--store',
        storeUrl,
        '--data-dir',
        join(dir.path, 'planner'),
        '--api-url',
        sb.url,
        '--json',
      ],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string; scheduled_for: string | null } }).batch.id;
    const [row] = await query<{ scheduled_at: string; started_at: string | null }>(storeUrl, `SELECT scheduled_at, started_at FROM batches WHERE id = $1`, [
      id,
    ]);
    expect(Math.abs(Number(row?.scheduled_at) - ahead)).toBeLessThan(1_000);
    expect(row?.started_at).toBeNull();

    // A run of everything (no --watch) leaves it for its time and ends at once.
    const all = await runCli(['run', '--store', storeUrl, '--data-dir', join(dir.path, 'early'), '--api-url', sb.url], keyEnv(sb));
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toContain(`Batch ${id} is scheduled for`);
    expect(all.stderr).toContain('left for then');

    // One worker named to it, one standing worker: neither sends before its time.
    const named = startCli(['run', id, '--store', storeUrl, '--data-dir', join(dir.path, 'named'), '--api-url', sb.url], keyEnv(sb));
    const standing = startCli(['run', '--watch', '--store', storeUrl, '--data-dir', join(dir.path, 'standing'), '--api-url', sb.url], keyEnv(sb));
    live.push({ ...named, tag: 'named' }, { ...standing, tag: 'standing' });
    // Both up, reading the store (what each says when it starts), the named one waiting for the time.
    const said = { named: '', standing: '' };
    named.child.stderr?.on('data', (c: Buffer) => (said.named += c.toString()));
    standing.child.stderr?.on('data', (c: Buffer) => (said.standing += c.toString()));
    await expect.poll(() => said.named.includes('this worker waits for it') && said.standing.includes('on the shared store'), { timeout: 60_000 }).toBe(true);
    await sleep(1_500); // a pass or more of each worker's loop (1 s)
    expect(await admin.ledger()).toEqual([]);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'queued', n: ROWS }]);

    // The time brought forward to 2 s from now, as `schedule ID --at TIME --store` writes it: both
    // workers read it again at their next pass.
    const at = Date.now() + 2_000;
    await query(storeUrl, `UPDATE batches SET scheduled_at = $2 WHERE id = $1`, [id, at]);

    const done = await named.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain(`Batch ${id} is scheduled for`);
    expect(done.stderr).toContain('this worker waits for it');
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(ROWS);
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ROWS);
    // The server's clock and this one are the same machine's: nothing arrived before the time.
    for (const d of ledger) expect(Date.parse(d.at)).toBeGreaterThanOrEqual(at - 50);
    const [started] = await query<{ started_at: string }>(storeUrl, `SELECT started_at FROM batches WHERE id = $1`, [id]);
    expect(Number(started?.started_at)).toBeGreaterThanOrEqual(at - 50);

    // Another one, an hour ahead: its time changed from any computer, then started now.
    const later = await runCli(
      [
        'batch',
        'create',
        'channel',
        csv,
        '--name',
        'later',
        '--allow-resend',
        '--yes',
        '--at',
        new Date(Date.now() + 3_600_000).toISOString(),
        '--store',
        storeUrl,
        '--data-dir',
        join(dir.path, 'planner'),
        '--api-url',
        sb.url,
        '--json',
      ],
      keyEnv(sb),
    );
    const laterId = (JSON.parse(later.stdout) as { batch: { id: string } }).batch.id;
    const env = { BATCHDESK_STORE: storeUrl };
    const moved = await runCli(
      ['schedule', laterId, '--yes', '--at', new Date(Date.now() + 7_200_000).toISOString(), '--data-dir', join(dir.path, 'elsewhere')],
      env,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('A worker of the team running then starts it');
    const past = await runCli(['schedule', laterId, '--at', '2020-01-01T09:00Z', '--data-dir', join(dir.path, 'elsewhere')], env);
    expect(past.code).toBe(2);
    const now = await runCli(['schedule', laterId, '--now', '--yes', '--data-dir', join(dir.path, 'elsewhere')], env);
    expect(now.code, now.stderr).toBe(0);
    await expect.poll(async () => (await jobStates(storeUrl, laterId)).find((s) => s.state === 'succeeded')?.n ?? 0, { timeout: 20_000 }).toBe(ROWS);
    const again = await runCli(['schedule', laterId, '--clear', '--data-dir', join(dir.path, 'elsewhere')], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('has already started');

    standing.child.kill('SIGTERM');
    expect((await standing.done).code).toBe(0); // a standing worker stopped by SIGTERM
  }, 240_000);
});
