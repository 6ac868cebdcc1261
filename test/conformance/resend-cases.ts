// One behaviour, two stores, for the same input made into a batch twice: rows (same channel,
// recipient, text) and files (same content, capability and tier) already in an unfinished or
// succeeded batch are left out with that batch named, unless a resend is allowed; those of a
// failed batch, or that a cancelled batch never sent, may go again. On one computer the data
// folder's batches are compared (test/integration/resend.test.ts); for a team, the team's
// (resend-pg.test.ts: left out when the batch moves to the shared store).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES, writeMessagesCsv } from '../integration/harness';
import { made, type OpenStoreRig } from './store-rig';

export function resendCases(name: string, open: OpenStoreRig): void {
  describe(`resend conformance: ${name}`, () => {
    it('leaves out rows already in another batch, naming it; a deliberate resend takes them, with new keys', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 5);
      const first = (await made(r, { capability: 'channel', paths: [csv.path] })).batch;
      const again = await r.create({ capability: 'channel', paths: [csv.path] });
      expect(again.batch).toBeNull();
      expect(again.alreadyQueued).toBe(5);
      expect(again.problems).toHaveLength(5);
      for (const p of again.problems) expect(p.message).toContain(`batch ${first.id}`);
      await r.run(first.id);
      expect(await r.admin.ledger()).toHaveLength(5);
      // Done now: still left out; a deliberate resend is a new batch with new keys.
      expect((await r.create({ capability: 'channel', paths: [csv.path] })).alreadyQueued).toBe(5);
      const resend = (await made(r, { capability: 'channel', paths: [csv.path], allowResend: true })).batch;
      expect(resend.total).toBe(5);
      const keys = new Set([...(await r.jobs(first.id)), ...(await r.jobs(resend.id))].map((j) => j.idempotency_key));
      expect(keys.size).toBe(10);
    });

    it('only the rows already there are left out; new rows and another channel are taken', async () => {
      const r = await open();
      const three = await writeMessagesCsv(r.dir, 3, 'three.csv');
      await made(r, { capability: 'channel', paths: [three.path] });
      const five = await writeMessagesCsv(r.dir, 5, 'five.csv');
      const c = await r.create({ capability: 'channel', paths: [five.path] });
      expect(c.batch?.total).toBe(2);
      expect(c.alreadyQueued).toBe(3);
      const email = join(r.dir, 'email.csv');
      await writeFile(email, 'to,text\nann@example.com,hello\n');
      expect((await r.create({ capability: 'channel', paths: [email], channel: 'email' })).batch?.total).toBe(1);
      expect((await r.create({ capability: 'channel', paths: [three.path], channel: 'voice' })).batch?.total).toBe(3);
    });

    it('rows of a failed or cancelled batch may be sent again without a resend', async () => {
      const r = await open({ backoff: { baseMs: 5, capMs: 10, maxTries: 1 } });
      const csv = await writeMessagesCsv(r.dir, 2);
      await r.admin.setFaults({ error_rate: 1 });
      const failed = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      await r.run(failed);
      expect((await r.summary(failed)).status).toBe('done_with_failures');
      const later = await writeMessagesCsv(r.dir, 1, 'later.csv', 500);
      const cancelled = (await made(r, { capability: 'channel', paths: [later.path] })).batch.id;
      await r.cancel(cancelled);
      expect((await r.create({ capability: 'channel', paths: [csv.path, later.path] })).batch?.total).toBe(3);
    });

    it('rows a cancelled batch already sent are left out; the ones it never sent may go', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 4);
      const id = (await made(r, { capability: 'channel', paths: [csv.path], sample: 2 })).batch.id;
      await r.run(id); // the sample: 2 sent, then the batch pauses
      expect((await r.summary(id)).counts.succeeded).toBe(2);
      await r.cancel(id);
      const again = await r.create({ capability: 'channel', paths: [csv.path] });
      expect(again.batch?.total).toBe(2);
      expect(again.alreadyQueued).toBe(2);
    });

    it('leaves out files whose content is already in a batch of the same capability and tier; another tier is new work', async () => {
      const r = await open();
      const first = (await made(r, { capability: 'ocr', paths: [INVOICES], tier: 'basic' })).batch;
      const again = await r.create({ capability: 'ocr', paths: [INVOICES], tier: 'basic' });
      expect(again.batch).toBeNull();
      expect(again.alreadyQueued).toBe(first.total);
      expect(again.problems.every((p) => p.message.includes(`batch ${first.id}`))).toBe(true);
      expect((await r.create({ capability: 'ocr', paths: [INVOICES], tier: 'superior' })).batch?.total).toBe(first.total);
      expect((await r.create({ capability: 'ocr', paths: [INVOICES], tier: 'basic', allowResend: true })).batch?.total).toBe(first.total);
    });
  });
}
