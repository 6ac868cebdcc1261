// Which workers are up, busy or not: a standing worker with nothing to do is listed by `status
// --store` (text and JSON); one stopped by SIGTERM takes itself off the list (and exits 0); one
// killed drops off once its last note is older than WORKER_SEEN_MS.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, startCli } from '../helpers/cli';
import { keyEnv, useTeamRig } from '../helpers/team-run';
import { WORKER_SEEN_MS } from '../../src/main/engine/team/team-worker';

interface Up {
  worker: string;
  standing: boolean;
  started_at: number;
  seen_at: number;
  running: number;
}

describe('team: workers up', () => {
  const rig = useTeamRig('batchdesk-team-up-', { seed: 12 });

  it('lists idle standing workers, and not those stopped or killed', async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('up');
    const status = async (): Promise<{ text: string; up: Up[] }> => {
      const env = { BATCHDESK_STORE: storeUrl };
      const json = await runCli(['status', '--json', '--data-dir', join(dir.path, 'look')], env);
      expect(json.code, json.stderr).toBe(0);
      const text = await runCli(['status', '--data-dir', join(dir.path, 'look')], env);
      return { text: text.stdout, up: (JSON.parse(json.stdout) as { workers_up: Up[] }).workers_up };
    };
    expect((await status()).text).toContain('Workers up: none');

    const a = startCli(['run', '--watch', '--store', storeUrl, '--data-dir', join(dir.path, 'a'), '--api-url', sb.url], keyEnv(sb));
    const b = startCli(['run', '--watch', '--store', storeUrl, '--data-dir', join(dir.path, 'b'), '--api-url', sb.url], keyEnv(sb));
    live.push({ ...a, tag: 'a' }, { ...b, tag: 'b' });
    // Bounds for observed state, not timings: each look is two commands, seconds each at load 15.
    await expect.poll(async () => (await status()).up.length, { timeout: 180_000, interval: 1_000 }).toBe(2);
    const { text, up } = await status();
    const names = [a, b].map((w) => `${up[0]?.worker.split(' ')[0]} ${w.child.pid}`).sort();
    expect(up.map((w) => w.worker).sort()).toEqual(names);
    for (const w of up) expect(w).toMatchObject({ standing: true, running: 0 });
    for (const n of names) expect(text).toContain(`${n} (standing, idle)`);

    // Stopped by SIGTERM: exits 0 and is off the list at once.
    a.child.kill('SIGTERM');
    expect((await a.done).code).toBe(0);
    expect((await status()).up.map((w) => w.worker)).toEqual([`${up[0]?.worker.split(' ')[0]} ${b.child.pid}`]);

    // Killed: listed until its last note is older than WORKER_SEEN_MS, then not.
    b.child.kill('SIGKILL');
    await b.done;
    await expect.poll(async () => (await status()).up.length, { timeout: WORKER_SEEN_MS + 180_000, interval: 1_000 }).toBe(0);
  }, 600_000);
});
