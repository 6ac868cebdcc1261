// `forget` over a team's PostgreSQL store, through the same engine code as the data folder's:
// afterwards no row of any table holds the value, the job's embedding, search entry and stored
// file are gone, and the person stays on the team's opt-out list (as a keyed hash).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { FakeClock } from '../helpers/fake-clock';
import { PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { forgetInStore } from '../../src/main/engine/forget/forget';
import { PgForgetStore } from '../../src/main/engine/forget/pg-forget-store';
import { forgetTarget } from '../../src/main/engine/forget/forget-target';
import { beforeSend } from '../../src/main/engine/queue/before-send';
import { capabilityFor } from '../../src/main/engine/capabilities/registry';
import { createInTeamStore, teamCreateProblems } from '../../src/main/engine/team/team-create';
import { FORGOTTEN_RECIPIENT } from '../../src/main/engine/messaging/forgotten-recipient';
import { startHarness, writeText } from '../integration/harness';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
}, PG_START_MS);
afterAll(() => cluster?.destroy());

const FORMS = ['+44 20 7946 0123', '+442079460123', '020 7946 0123', '7946 0123'];

async function traces(store: PgQueueStore, forms: readonly string[]): Promise<string[]> {
  const tables = (await store.pool.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows.map((r) => r.tablename);
  const found: string[] = [];
  for (const t of tables) {
    const rows = (await store.pool.query<{ row: string }>(`SELECT row_to_json(x)::text AS row FROM ${t} x`)).rows;
    for (const r of rows) for (const f of forms) if (r.row.toLowerCase().includes(f.toLowerCase())) found.push(`${t}: ${f}`);
  }
  return found;
}

describe("forget in a team's store", () => {
  it('removes a phone number from every table and keeps the opt-out as a keyed hash', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const store = await PgQueueStore.open({ url, clock, worker: 'test-host 1' });
    try {
      await store.createBatch({
        id: 'b1',
        name: 'calls',
        capability: 'channel',
        tier: 'standard',
        channel: 'whatsapp',
        options: {},
        budget: null,
        creator: 'test 1',
      });
      const job = (seq: number, to: string, text: string) => ({
        seq,
        idempotencyKey: `k-${seq}`,
        fingerprint: BigInt(seq),
        source: `row ${seq + 1}`,
        payloadJson: JSON.stringify({ to, text }),
        requestBody: JSON.stringify({ to, text }),
        estimatedUnits: 1,
        estimatedCost: 50,
      });
      await store.addJobs('b1', [
        job(1, '+442079460123', 'Hello, call us back from 020 7946 0123'),
        job(2, '+442079460999', 'Hello Max'),
        job(3, '+442079460123', 'Later'),
      ]);
      await store.seal('b1', { total: 3, estimatedUnits: 3, estimatedCost: 150 });
      await store.start('b1');
      const [first] = await store.claim('b1', 1, 60_000);
      if (!first) throw new Error('nothing claimed');
      await store.succeed(first, {
        units: 1,
        cost: 50,
        resultJson: JSON.stringify({ to: '+44 20 7946 0123', status: 'delivered' }),
        rawResponse: '{"to":"+442079460123"}',
        httpStatus: 200,
        vector: new Float32Array([1, 2, 3]),
        file: { name: 'call.wav', bytes: Buffer.from('RIFF +442079460123') },
      });
      await store.addOptOuts([{ recipient: '+442079460123', source: 'asked on the phone' }]);
      expect((await traces(store, FORMS)).length).toBeGreaterThan(0);

      const t = forgetTarget('+44 (0)20 7946 0123');
      if (!t.ok) throw new Error(t.reason);
      const r = await forgetInStore(new PgForgetStore(store.pool, () => clock.now()), t.target);
      expect(r.jobs.map((j) => j.id).length).toBe(2);
      expect(r.embeddings).toBe(1);
      expect(r.storedFiles).toBe(1);
      expect(r.cancelled).toBe(1);
      expect(r.optOutHashed).toBe(true);

      expect(await traces(store, FORMS)).toEqual([]);
      expect((await traces(store, ['+442079460999'])).length).toBeGreaterThan(0);
      // Still never messaged by any worker: the team's list finds them by their hash.
      const listed = await store.optedOutAmong(['+442079460123', '+442079460999']);
      expect([...listed.keys()]).toEqual(['+442079460123']);
      expect(listed.get('+442079460123')?.recipient).toMatch(/^forgotten:[0-9a-f]{64}$/);
    } finally {
      await store.close();
    }
  });

  it('says a forgotten person is one, never by their hash: when a team batch is made and just before a send', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const store = await PgQueueStore.open({ url, clock, worker: 'test-host 1' });
    const h = await startHarness();
    try {
      await store.addOptOuts([{ recipient: '+442079460123', source: 'asked on the phone' }]);
      const t = forgetTarget('+442079460123');
      if (!t.ok) throw new Error(t.reason);
      await forgetInStore(new PgForgetStore(store.pool, () => clock.now()), t.target);
      const hashed = (await store.optedOutAmong(['+442079460123'])).get('+442079460123');
      expect(hashed?.recipient).toMatch(/^forgotten:/);

      // Made for the team: the row naming them is left out, in words (and as the window's code).
      const csv = await writeText(h, 'notice.csv', 'to,text\n+44 20 7946 0123,Hello\n+44 20 7946 0999,Hello\n');
      const made = await createInTeamStore(h.engine, store, { capability: 'channel', paths: [csv] });
      const problems = teamCreateProblems(made, { optOut: ' (optout remove)', resend: '' });
      expect(problems).toHaveLength(1);
      expect(problems[0]?.message).toContain(`${FORGOTTEN_RECIPIENT}, on the team's opt-out list since`);
      expect(problems[0]?.code).toMatchObject({ code: 'opt_out_listed', recipient: '+442079460123', forgotten: true, from: '' });
      expect(JSON.stringify(problems)).not.toContain('forgotten:');

      // Checked again by a worker just before sending: the job's reason names no hash either.
      const job = { payload_json: JSON.stringify({ to: '+442079460123', text: 'Hi', subject: null, row: 2, fields: {} }), source: 'm.csv row 2', attempts: 0 };
      const checks = { optedOut: async (r: string) => (await store.optedOutAmong([r])).get(r) ?? null, timing: () => ({ kind: 'send' as const }) };
      const pre = await beforeSend(job, capabilityFor('channel'), checks);
      expect(pre.kind).toBe('skip');
      if (pre.kind !== 'skip') return;
      expect(pre.reason).toMatch(new RegExp(`^not sent: ${FORGOTTEN_RECIPIENT.replace(/[()]/g, '\\$&')}, on the opt-out list since \\d{4}-\\d\\d-\\d\\d\\.$`));
      expect(pre.reason).not.toContain('forgotten:');

      // A job skipped for that reason reads back from the store as a forgotten person's opt-out, on
      // its row and in its history (the window says so from the field, not from the words).
      const id = made.batch?.id;
      if (id === undefined) throw new Error('the team batch was not made');
      expect(await store.start(id)).toBe(true);
      const [leased] = await store.claim(id, 1, 60_000);
      if (!leased) throw new Error('no job was claimed');
      expect(await store.skip(leased, pre.reason)).toBe(true);
      const row = (await store.jobPage({ batchId: id, limit: 10, offset: 0 })).rows.find((r) => r.id === leased.id);
      expect(row?.note).toEqual({ code: 'opted_out', forgotten: true });
      const detail = await store.jobDetail(leased.id);
      expect(detail?.events.at(-1)?.note).toEqual({ code: 'opted_out', forgotten: true });
    } finally {
      await store.close();
    }
  });
});
