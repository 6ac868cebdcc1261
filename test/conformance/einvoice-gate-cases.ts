// E-invoices are read on the computer that sends, so they never wait for the API's rate gate nor
// take a slot of it (issue 43): with the gate full (one slot, held by a scan whose OCR answer does
// not come), every e-invoice of the batch is read meanwhile, without an attempt or a request.
// Stopped then, the scan waits for the next run with its key, and each e-invoice stays read once.
// The same case on this data folder's SQLite (einvoices-gate.test.ts) and on the team's
// PostgreSQL (einvoices-gate-pg.test.ts).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciiXml, NORDLICHT, pdfWithAttachment, ublXml } from '../helpers/einvoice-files';
import { INVOICES, sandboxIdempotencyKeys } from '../integration/harness';
import { made, until, type OpenStoreRig } from './store-rig';

export function einvoiceGateCases(label: string, open: OpenStoreRig): void {
  describe(`e-invoices beside a full rate gate (${label})`, () => {
    it('are all read while the only slot waits on a scan, and nothing is sent twice', async () => {
      const r = await open({ gate: { concurrency: 1, rpm: null } });
      const folder = join(r.dir, 'inbox');
      await mkdir(folder);
      // Path order: the scan is claimed first and takes the gate's one slot.
      const scan = 'a-scan.pdf';
      await copyFile(join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'), join(folder, scan));
      const einvoices: string[] = [];
      for (let i = 0; i < 6; i++) {
        const name = `e-${i}.${i % 3 === 2 ? 'pdf' : 'xml'}`;
        const inv = { ...NORDLICHT, number: `RE-2026-20${i}` };
        await writeFile(
          join(folder, name),
          i % 3 === 0 ? ublXml(inv) : i % 3 === 1 ? ciiXml(inv) : pdfWithAttachment('factur-x.xml', ciiXml(inv), `Rechnung ${inv.number}`),
        );
        einvoices.push(name);
      }
      const created = await made(r, { capability: 'ocr', paths: [folder] });
      const id = created.batch.id;
      expect(created.problems).toEqual([]);

      // The API holds every answer for a minute: the scan keeps the gate's only slot.
      await r.admin.setFaults({ latency_ms: 60_000 });
      const stop = new AbortController();
      const run = r.run(id, stop.signal);
      const state = async (name: string) => (await r.jobs(id)).find((j) => j.source.endsWith(`/${name}`))?.state;
      const allRead = async () => (await Promise.all(einvoices.map(state))).every((s) => s === 'succeeded');
      await until(allRead, 30_000);
      expect(await state(scan)).toBe('running');
      // Nothing but the scan reached the API, and no e-invoice has an attempt.
      const scanJob = (await r.jobs(id)).find((j) => j.source.endsWith(`/${scan}`));
      await until(async () => (await r.attempts(id)).length > 0);
      expect((await r.attempts(id)).map((a) => a.job_id)).toEqual([scanJob?.id]);
      stop.abort();
      await run;

      // The scan went back to wait for its next run, with its stored key; the e-invoices stay read once.
      const after = await r.jobs(id);
      expect(after.find((j) => j.id === scanJob?.id)).toMatchObject({ state: 'queued', idempotency_key: scanJob?.idempotency_key });
      expect(after.filter((j) => j.id !== scanJob?.id).map((j) => [j.state, j.attempts, j.cost])).toEqual(einvoices.map(() => ['succeeded', 0, 0]));
      expect([...sandboxIdempotencyKeys(r.sb).keys()]).toEqual([scanJob?.idempotency_key]);
    }, 120_000);
  });
}
