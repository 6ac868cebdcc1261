// A team batch whose key the API revoked, as the command line goes on with it: the worker stops
// with what to do; a resume from a desk without a key is refused, one from a desk with the revoked
// key goes on with it (and says so); a worker with the new key says how to move the batch to it;
// `resume ID --store` from a computer with the new key (after a pause, whatever paused it) makes
// that key the batch's; a worker with it sends the rest, each message once, none twice.
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
    expect(status.stdout).toMatch(/paused \(auth\)/);
    expect(status.stdout).toMatch(/refused/);
    expect(status.stdout).toContain(`batchdesk resume ${id} --store ${storeUrl}`);

    const planner = ['--store', storeUrl, '--data-dir', join(dir.path, 'planner')];
    // From a desk without a channel key: refused, nothing changed (which key would go on?).
    const keyless = await runCli(['resume', id, '--yes', '--store', storeUrl, '--data-dir', join(dir.path, 'manager')], { BATCHDESK_API_KEY: sb.apiKey });
    expect(keyless.code).not.toBe(0);
    expect(keyless.stderr).toContain('this computer has no channel key for it');
    expect((await runCli(['status', id, ...planner])).stdout).toMatch(/paused \(auth\)/);
    // From a desk that still has the revoked key: resumed with it, and said so.
    const same = await runCli(['resume', id, '--yes', '--store', storeUrl, '--data-dir', join(dir.path, 'old-desk')], { BATCHDESK_CHANNEL_KEY: sb.channelKey });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain(`goes on with the key the API refused (…${sb.channelKey.slice(-4)})`);

    const fresh = await admin.createKey({ client: old.client, kind: 'channel' });
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: fresh.key };
    // A worker with the new key leaves it (not the batch's key yet), saying how to move it to its key.
    const early = await runCli(['run', id, '--store', storeUrl, '--data-dir', join(dir.path, 'worker-2'), '--api-url', sb.url], env);
    expect(early.code).not.toBe(0);
    expect(early.stdout + early.stderr).toContain(
      `pause the batch and resume it from here (\`batchdesk pause ${id} --store ${storeUrl} --data-dir ${join(dir.path, 'worker-2')} --api-url ${sb.url}\``,
    );
    expect((await runCli(['pause', id, '--store', storeUrl, '--data-dir', join(dir.path, 'desk')], env)).code).toBe(0);
    const resumed = await runCli(['resume', id, '--yes', '--store', storeUrl, '--data-dir', join(dir.path, 'desk')], env);
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
