// A real round trip through the OS keychain. `npm test` runs this inside a private D-Bus
// session with GNOME Keyring (scripts/with-keyring.mjs); it fails, rather than skips, where no
// keychain answers, because "keys live in the OS keychain" is a promise of the product.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { KeychainStore, KeychainUnavailableError } from '../../src/main/engine/secrets/secret-store';
import { Engine } from '../../src/main/engine/engine';
import { nullLogger } from '../../src/main/engine/log/logger';
import { tempDir } from '../helpers/temp-dir';
import { readFileSync, readdirSync } from 'node:fs';

const service = `batchdesk-test-${randomUUID()}`;

describe('OS keychain', () => {
  const store = new KeychainStore(service);
  const dir = tempDir();
  let engine: Engine;

  beforeAll(() => {
    engine = Engine.open({ dataDir: dir.path, secrets: store, logger: nullLogger, env: {} });
  });
  afterAll(() => {
    engine.close();
    dir.cleanup();
  });

  it('stores, reads, replaces and deletes a secret', async () => {
    const account = `api:${randomUUID()}`;
    await store.set(account, 'sk_test_first_secret_1234');
    expect(await store.get(account)).toBe('sk_test_first_secret_1234');
    await store.set(account, 'sk_test_second_secret_5678');
    expect(await store.get(account)).toBe('sk_test_second_secret_5678');
    expect(await store.delete(account)).toBe(true);
    expect(await store.get(account)).toBeNull();
    expect(await store.delete(account)).toBe(false);
  });

  it('keeps only metadata in SQLite and resolves the active key from the keychain', async () => {
    const secret = `sk_live_${randomUUID().replace(/-/g, '')}`;
    const info = await engine.keys.add({ kind: 'api', label: 'acme', secret, client: 'ACME GmbH', baseUrl: 'https://api.example.test' });
    expect(info).toMatchObject({ kind: 'api', label: 'acme', last4: secret.slice(-4), active: true });
    const resolved = await engine.keys.resolve('api');
    expect(resolved?.secret).toBe(secret);
    expect(resolved?.label).toBe(`acme …${secret.slice(-4)}`);
    // The secret is nowhere in the data folder.
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of readdirSync(dir.path)) {
      if (f.endsWith('.sqlite') || f.endsWith('-wal')) expect(readFileSync(join(dir.path, f)).includes(Buffer.from(secret))).toBe(false);
    }
    await engine.keys.remove(info.id);
    expect(await engine.keys.resolve('api')).toBeNull();
  });

  it('says why when no keychain answers', async () => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${join(process.cwd(), 'src/main/engine/secrets/secret-store.ts').replace(/\\/g, '/')}').then(async (m) => { try { await new m.KeychainStore('${service}').set('x:y', 'zzzzzzzzzz'); console.log('stored'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); } })`,
      ],
      { env, encoding: 'utf8' },
    );
    expect(r.stdout).toContain('KeychainUnavailableError');
    expect(r.stdout).toContain('BATCHDESK_API_KEY');
    expect(KeychainUnavailableError).toBeDefined();
  });
});
