// A standing worker (`run --watch --store`) whose connection to the shared store freezes: a TCP
// proxy of the test's own between the built CLI and a real PostgreSQL stops forwarding anything,
// as a network that silently drops packets (TCP itself would wait for minutes). The worker says
// within 10 s that the store cannot be reached, naming it, keeps trying, says when it is back,
// and then sends a batch started afterwards, each message once.
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli } from '../helpers/cli';
import { startTcpProxy } from '../helpers/tcp-proxy';
import { createSharedBatch, jobStates, keyEnv, sleep, useTeamRig, writeChannelCsv } from '../helpers/team-run';

const ROWS = 20;
const PASSWORD = 'pw-never-shown';

/** Waits until `test` holds, up to `ms`; the time it took, or null. */
async function within(ms: number, test: () => boolean | Promise<boolean>): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await test()) return Date.now() - start;
    await sleep(100);
  }
  return null;
}

describe('team: the store connection freezes under a worker', () => {
  const rig = useTeamRig('batchdesk-team-freeze-', { seed: 13 });

  it('a standing worker says so within 10 s, keeps trying, and carries on when the store is back', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const db = await cluster.freshDatabase('freeze');
    const proxy = await startTcpProxy(cluster.port);
    try {
      const viaProxy = new URL(proxy.url(db));
      viaProxy.password = PASSWORD;
      const { child, done } = startCli(
        ['run', '--watch', '--store', viaProxy.toString(), '--data-dir', join(dir.path, 'worker'), '--api-url', sb.url],
        keyEnv(sb),
      );
      live.push({ child, done, tag: `${hostname()} ${child.pid ?? '?'}` });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      expect(await within(30_000, () => stderr.includes('Staying on (--watch)')), stderr).not.toBeNull();
      // Idle, it reads the store's batches every second: the network freezes as it asks, and nothing comes back.
      await proxy.freezeWhen('SELECT b.* FROM batches b');
      const heard = await within(20_000, () => stderr.includes('cannot be reached'));
      expect(heard, `said nothing for 20 s of a frozen store:\n${stderr}`).not.toBeNull();
      // "Within 10 s", with a margin for a loaded machine.
      expect(heard).toBeLessThanOrEqual(10_000 + 3_000);
      expect(stderr).toMatch(
        new RegExp(
          `The shared store postgresql://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port}/\\S+ cannot be reached \\(.+\\)\\. This worker pauses: it keeps the answers it has, tries again every second`,
        ),
      );
      expect(stderr).not.toContain(PASSWORD);

      // It goes on trying, and hears the store again once the network is back.
      await sleep(3_000);
      expect(child.exitCode).toBeNull();
      proxy.thaw();
      expect(await within(30_000, () => stderr.includes('The shared store is back: carrying on.')), stderr).not.toBeNull();

      // And sends what is started afterwards, each message once.
      const csv = join(dir.path, 'after.csv');
      writeChannelCsv(csv, ROWS);
      const id = await createSharedBatch({ storeUrl: db, dataDir: join(dir.path, 'planner'), sb, csv, name: 'after the freeze' });
      const started = await runCli(['schedule', id, '--now', '--yes', '--store', db, '--data-dir', join(dir.path, 'planner')]);
      expect(started.code, started.stderr).toBe(0);
      const sent = await within(60_000, async () => JSON.stringify(await jobStates(db, id)) === JSON.stringify([{ state: 'succeeded', n: ROWS }]));
      expect(sent, stderr).not.toBeNull();
      child.kill('SIGTERM');
      const r = await done;
      expect(r.code, r.stderr).toBe(0);
      const ledger = await admin.ledger();
      expect(ledger).toHaveLength(ROWS);
      expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ROWS);
    } finally {
      await proxy.close();
    }
  }, 150_000);
});
