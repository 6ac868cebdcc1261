// E-invoices are read on this computer, so they never wait for the API's rate gate (issue 43): with
// the gate full (one slot, held by a scan whose OCR answer does not come), every e-invoice of the
// batch is read meanwhile, without an attempt or a request. Stopped then, the scan waits for the
// next run with its key, and each e-invoice stays read once.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciiXml, NORDLICHT, pdfWithAttachment, ublXml } from '../helpers/einvoice-files';
import { attemptsOf, INVOICES, jobsOf, sandboxIdempotencyKeys, startHarness } from './harness';

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('e-invoices beside a full rate gate', () => {
  it('are all read while the only slot waits on a scan, and nothing is sent twice', async () => {
    const h = await startHarness({ config: { gate: { concurrency: 1, rpm: null } } });
    const folder = join(h.dir, 'inbox');
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
    const created = await h.engine.createBatch({ capability: 'ocr', paths: [folder] });
    const id = created.batch?.id ?? '';
    expect(created.problems).toEqual([]);

    // The API holds every answer for a minute: the scan keeps the gate's only slot.
    await h.admin.setFaults({ latency_ms: 60_000 });
    const stop = new AbortController();
    const run = h.run({ batchIds: [id], signal: stop.signal });
    const state = (name: string) => jobsOf(h.engine, id).find((j) => j.source.endsWith(`/${name}`))?.state;
    await until('the e-invoices to be read', () => einvoices.every((n) => state(n) === 'succeeded'));
    expect(state(scan)).toBe('running');
    // Nothing but the scan reached the API, and no e-invoice has an attempt.
    const scanJob = jobsOf(h.engine, id).find((j) => j.source.endsWith(`/${scan}`));
    expect(attemptsOf(h.engine, id).map((a) => a.job_id)).toEqual([scanJob?.id]);
    stop.abort();
    await run;

    // The scan went back to wait for its next run, with its stored key; the e-invoices stay read once.
    const after = jobsOf(h.engine, id);
    expect(after.find((j) => j.id === scanJob?.id)).toMatchObject({ state: 'queued', idempotency_key: scanJob?.idempotency_key });
    expect(after.filter((j) => j.id !== scanJob?.id).map((j) => [j.state, j.attempts, j.cost])).toEqual(einvoices.map(() => ['succeeded', 0, 0]));
    expect([...sandboxIdempotencyKeys(h.sb).keys()]).toEqual([scanJob?.idempotency_key]);
  }, 60_000);
});
