// One behaviour, two stores, for a key stored with its API's own address (`keys add --api-url`):
// that key's requests go there, whatever API the run targets, and a refusal names the address
// that refused it. Two real sandboxes: A, the run's API (the rig's), and B, the keys' own API,
// whose requests are counted as they arrive. Run on SQLite (test/integration/client-keys.test.ts)
// and on the team's PostgreSQL (client-keys-pg.test.ts); keys in the real keychain under a
// service of the test's own.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeychainStore } from '../../src/main/engine/secrets/secret-store';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { made, type OpenStoreRig } from './store-rig';
import { messages } from './client-key-cases';

export function keyAddressCases(name: string, open: OpenStoreRig): void {
  describe(`key address conformance: ${name}`, () => {
    const keychains: KeychainStore[] = [];
    const stored: string[] = [];
    const others: SandboxHandle[] = [];
    afterEach(async () => {
      for (const k of keychains.splice(0)) for (const id of stored.splice(0)) await k.delete(id).catch(() => undefined);
      for (const sb of others.splice(0)) await sb.close();
    });

    it("a channel key's own --api-url is where its batch goes (the run's API gets none of it); a key refused there is named with that address", async () => {
      const keychain = new KeychainStore(`batchdesk-test-${randomUUID()}`);
      keychains.push(keychain);
      const r = await open({ gate: { concurrency: 4, rpm: null } }, { secrets: keychain });
      // B: the API the channel keys belong to; every request that reaches it is counted.
      const atB: { path: string; status: number }[] = [];
      const b = await startSandbox({
        port: 0,
        seed: 7,
        log: (line) => {
          const m = /^POST (\/v1\/\S+) (\d{3}) /.exec(line);
          if (m) atB.push({ path: m[1] ?? '', status: Number(m[2]) });
        },
      });
      others.push(b);
      const adminB = new SandboxAdmin(b.url, b.adminToken);
      const acme = await adminB.createKey({ client: 'ACME GmbH', kind: 'channel' });
      await r.addKey({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl: b.url });
      // Another client's key for B that B never issued: B refuses it.
      const wrong = `ck_test_${randomUUID().replace(/-/g, '')}`;
      await r.addKey({ kind: 'channel', label: 'globex', secret: wrong, client: 'Globex', baseUrl: b.url });
      stored.push('channel:acme', 'channel:globex');

      const a = await made(r, { capability: 'channel', paths: [await messages(r.dir, 'acme', 6, 1)], key: 'acme' });
      const g = await made(r, { capability: 'channel', paths: [await messages(r.dir, 'globex', 3, 100)], key: 'globex' });
      // A text batch with the run's own key (the environment's, no address of its own): to A.
      const txt = join(r.dir, 'tickets.txt');
      await writeFile(txt, 'My refund has not arrived yet.\nThe parcel never came.\nWhere is my invoice?\n');
      const t = await made(r, { capability: 'text', paths: [txt], task: 'summary' });
      await r.run();

      // ACME's messages went to B, each once, under ACME's key there; none reached A.
      const sa = await r.summary(a.batch.id);
      expect(sa.counts.succeeded).toBe(6);
      expect(sa.sent_to).toBe(`${b.url}/`);
      const ledgerB = await adminB.ledger();
      expect(ledgerB.filter((d) => d.key_id === acme.id)).toHaveLength(6);
      expect(atB.filter((x) => x.path.startsWith('/v1/channels/') && x.status === 200)).toHaveLength(6);
      expect(await r.admin.ledger()).toEqual([]);

      // The text batch went to A, the run's API, and none of its requests to B.
      const st = await r.summary(t.batch.id);
      expect(st.counts.succeeded).toBe(3);
      expect(st.sent_to).toBe(`${r.sb.url}/`);
      const usageA = (await r.admin.usage()).rows;
      expect(usageA.filter((u) => u.rate_item === 'text').reduce((n, u) => n + u.requests, 0)).toBe(3);
      expect(usageA.filter((u) => u.rate_item !== 'text')).toEqual([]);
      expect(atB.filter((x) => x.path.startsWith('/v1/text'))).toEqual([]);

      // Globex's key was refused by B, not A: the pause says so, naming the key.
      const sg = await r.summary(g.batch.id);
      expect(sg.status).toBe('paused');
      expect(sg.pause?.kind).toBe('auth');
      expect(sg.pause?.reason).toContain(`The API at ${b.url}/ refused the channel key "globex …${wrong.slice(-4)}" (HTTP 401`);
      expect(sg.pause?.reason).toContain('--api-url URL');
      expect(sg.sent_to).toBe(`${b.url}/`);
      expect(atB.filter((x) => x.status === 401).length).toBeGreaterThan(0);
      for (const x of await r.attempts(g.batch.id)) expect(x.http_status).toBe(401);
    });
  });
}
