// A team batch whose key the API revoked, as the command line goes on with it: the worker stops
// with what to do; `resume ID --store` from a computer with the new key makes that key the batch's
// (and says so); a worker with it sends the rest, each message once, none twice.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { createSharedBatch, jobStates, startWorker, useTeamRig, writeChannelCsv } from '../helpers/team-run';

describe('team: a revoked key replaced', () => {
  const rig = useTeamRig('batchdesk-team-key-', { seed: 31 });

  it('resume --store from a computer with the new key makes it the batch key; the rest goes once', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('key_replaced');
    const csv = join(dir.path, 'm.csv');
    writeChannelCsv(csv, 40);
    const id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'key' });
    const old = (await admin.listKeys()).find((k) => k.key === sb.channelKey);
    if (!old) throw new Error('the sandbox has no record of its channel key');
    await admin.revokeKey(old.id);

    const first = startWorker({ storeUrl, dataDir: join(dir.path, 'worker'), sb });
    live.push(first);
    const stopped = await first.done;
    expect(stopped.code).not.toBe(0);
    const status = await runCli(['status', id, '--store', storeUrl, '--data-dir', join(dir.path, 'planner')]);
    expect(status.stdout).toMatch(/refused/);
    expect(status.stdout).toContain(`batchdesk resume ${id} --store URL`);

    const fresh = await admin.createKey({ client: old.client, kind: 'channel' });
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: fresh.key };
    const resumed = await runCli(['resume', id, '--store', storeUrl, '--data-dir', join(dir.path, 'desk')], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`now sent with this computer's key (…${fresh.key.slice(-4)})`);

    const again = await runCli(['run', id, '--store', storeUrl, '--data-dir', join(dir.path, 'worker-2'), '--api-url', sb.url], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: 40 }]);
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(40);
    expect(ledger.every((d) => d.key_id === fresh.id)).toBe(true);
  }, 120_000);
});
