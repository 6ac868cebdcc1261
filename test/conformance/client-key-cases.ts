// One behaviour, two stores, for clients and their keys: two clients' batches run side by side,
// each sending with the key it was made for and within that key's own request limit, and what was
// spent splits by client and by key. Keys live in the real keychain (the Secret Service the test
// runner starts) under a service of the test's own, on every machine. Run on SQLite
// (test/integration/client-keys.test.ts) and on the team's PostgreSQL (client-keys-pg.test.ts).
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeychainStore } from '../../src/main/engine/secrets/secret-store';
import type { SandboxAdmin } from '../../src/sandbox/admin-client';
import { made, type OpenStoreRig } from './store-rig';

/** queue/rate-gate.ts and team/shared-rate.ts: the catch-up allowed after a busy moment. */
const BURST = 3;
// How much later one request's trip to the API may be than another's on a loaded 2-core machine:
// the first arrival sets t0, so its delay shows up as the later ones looking early.
const TRIP_JITTER_MS = 250;

/** A CSV of `n` messages to +44 79460 numbers from `first` on. */
export async function messages(dir: string, name: string, n: number, first: number): Promise<string> {
  const rows = Array.from({ length: n }, (_, i) => `+4479460${String(first + i).padStart(5, '0')},Hello ${name} ${i + 1}`);
  const path = join(dir, `${name}.csv`);
  await writeFile(path, `to,text\n${rows.join('\n')}\n`);
  return path;
}

/** Arrival times (ms) at the API of one key's requests, in order. */
export async function arrivals(admin: SandboxAdmin, keyId: string): Promise<number[]> {
  return (await admin.ledger())
    .filter((d) => d.key_id === keyId)
    .map((d) => Date.parse(d.at))
    .sort((a, b) => a - b);
}

export function clientKeyCases(name: string, open: OpenStoreRig): void {
  describe(`client key conformance: ${name}`, () => {
    const keychains: KeychainStore[] = [];
    const stored: string[] = [];
    afterEach(async () => {
      for (const k of keychains.splice(0)) for (const id of stored.splice(0)) await k.delete(id).catch(() => undefined);
    });

    it('two clients’ batches run side by side, each within its own key’s request limit, and spend splits by client', async () => {
      const keychain = new KeychainStore(`batchdesk-test-${randomUUID()}`);
      keychains.push(keychain);
      const r = await open({ gate: { concurrency: 8, rpm: null } }, { secrets: keychain });
      // The API's limits for the two keys (the sandbox refuses above them) and the same limits stored with each key.
      const acme = await r.admin.createKey({ client: 'ACME GmbH', kind: 'channel', rpm: 300 });
      const globex = await r.admin.createKey({ client: 'Globex', kind: 'channel', rpm: 600 });
      await r.addKey({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', rpm: 300 });
      await r.addKey({ kind: 'channel', label: 'globex', secret: globex.key, client: 'Globex', rpm: 600 });
      stored.push('channel:acme', 'channel:globex');

      const a = await made(r, { capability: 'channel', paths: [await messages(r.dir, 'acme', 24, 1)], key: 'acme' });
      const g = await made(r, { capability: 'channel', paths: [await messages(r.dir, 'globex', 24, 500)], key: 'globex' });
      expect(a.batch.key).toEqual({ label: 'acme', client: 'ACME GmbH' });
      expect(g.batch.key).toEqual({ label: 'globex', client: 'Globex' });
      const ids = [a.batch.id, g.batch.id];
      await r.run();
      for (const id of ids) expect((await r.summary(id)).counts.succeeded).toBe(24);

      // Each key's requests reached the API under that key, never faster than its limit allows
      // (n requests take at least (n - burst) intervals; one interval and the trip jitter of slack
      // for the first request's own trip), and the two ran at the same time. Without a limit the
      // 24 requests arrive within a few milliseconds, far below this bound.
      const ta = await arrivals(r.admin, acme.id);
      const tg = await arrivals(r.admin, globex.id);
      expect([ta.length, tg.length]).toEqual([24, 24]);
      for (const [times, rpm] of [
        [ta, 300],
        [tg, 600],
      ] as const) {
        const interval = 60_000 / rpm;
        const t0 = times[0] ?? 0;
        times.forEach((t, i) => expect(t - t0).toBeGreaterThanOrEqual((i - BURST - 1) * interval - TRIP_JITTER_MS));
      }
      expect(Math.max(ta[0] ?? 0, tg[0] ?? 0)).toBeLessThan(Math.min(ta[ta.length - 1] ?? 0, tg[tg.length - 1] ?? 0));
      // The API never refused either key for its limit.
      for (const id of ids) expect((await r.attempts(id)).filter((x) => x.outcome === 'rate_limited')).toEqual([]);

      // Spend by client and by key: each batch's spend on its own client and key.
      const spent = async (id: string): Promise<number> => (await r.summary(id)).cost.spent;
      const [sa, sg] = [await spent(a.batch.id), await spent(g.batch.id)];
      const byClient = await r.spend({ by: 'client' });
      expect(byClient.rows.map((x) => [x.label, x.items, x.cost]).sort()).toEqual(
        [
          ['ACME GmbH', 24, sa],
          ['Globex', 24, sg],
        ].sort(),
      );
      expect(byClient.total).toBe(sa + sg);
      expect((await r.spend({ by: 'key' })).rows.map((x) => x.label).sort()).toEqual([`acme …${acme.key.slice(-4)}`, `globex …${globex.key.slice(-4)}`]);
      const statement = await r.spend({ by: 'batch', client: 'ACME GmbH' });
      expect(statement.rows).toEqual([expect.objectContaining({ group: a.batch.id, items: 24, units: 24, unit: 'messages', cost: sa })]);
    });
  });
}
