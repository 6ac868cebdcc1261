import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { startSandbox } from '../../src/sandbox/server';
import { send } from './helpers';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('file-backed sandbox', () => {
  it('keeps keys, spent, ledger and idempotent answers across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-restart-'));
    dirs.push(dir);
    const dbFile = join(dir, 'sandbox.db');

    const first = await startSandbox({ dbFile });
    const admin1 = new SandboxAdmin(first.url, first.adminToken);
    const custom = await admin1.createKey({ client: 'acme', kind: 'channel', cap: 1000, rpm: 30 });
    const sent = await send(first, 'restart-1', { to: '+34600111222', text: 'Before restart' }, 'whatsapp', custom.key);
    expect(sent.status).toBe(200);
    const sentBody = (await sent.json()) as { id: string };
    await first.close();

    const second = await startSandbox({ dbFile });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.channelKey).toBe(first.channelKey);
      expect(second.url).not.toBe('');
      const admin2 = new SandboxAdmin(second.url, second.adminToken);
      const keys = await admin2.listKeys();
      expect(keys.find((k) => k.id === custom.id)).toMatchObject({ client: 'acme', cap: 1000, rpm: 30, spent: 50 });

      const replay = await send(second, 'restart-1', { to: '+34600111222', text: 'Before restart' }, 'whatsapp', custom.key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe(sentBody.id);
      expect(await admin2.ledger()).toHaveLength(1);
      expect((await admin2.getKey(custom.id)).spent).toBe(50);
    } finally {
      await second.close();
    }
  });

  it('replaces a revoked default key on the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-restart-'));
    dirs.push(dir);
    const dbFile = join(dir, 'sandbox.db');
    const first = await startSandbox({ dbFile });
    const admin = new SandboxAdmin(first.url, first.adminToken);
    const apiKey = (await admin.listKeys()).find((k) => k.key === first.apiKey);
    await admin.revokeKey(apiKey?.id ?? '');
    await first.close();
    const second = await startSandbox({ dbFile });
    try {
      expect(second.apiKey).not.toBe(first.apiKey);
      expect(second.channelKey).toBe(first.channelKey);
    } finally {
      await second.close();
    }
  });
});
