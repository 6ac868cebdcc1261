// The shipped sample e-invoices (resources/samples/e-invoices, written by scripts/make-samples.ts):
// an OCR batch over them beside the scans reads them on this computer, with no request to the API
// and cost 0, every check passing; the UBL one passes the CEN EN 16931 rules as shipped, and each
// exported again as UBL passes them too (the CII and the PDF have no CEN UBL rules of their own).
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCenRules, fatalRules } from '../helpers/en16931-rules';
import { EINVOICES, einvoiceXml } from '../../scripts/make-samples';
import { readEInvoiceXml } from '../../src/main/engine/invoices/einvoice-xml';
import { ublDocument } from '../../src/main/engine/exporters/ubl-invoice';
import { attemptsOf, INVOICES, jobsOf, sandboxIdempotencyKeys, SAMPLES, startHarness } from './harness';

const FOLDER = join(SAMPLES, 'e-invoices');
const FALLBACK = { id: 'ITEM-1', issueDate: '2026-11-01', currency: 'EUR' };

describe('the sample e-invoices', () => {
  let stylesheet: unknown;
  beforeAll(() => {
    stylesheet = compiledCenRules();
  }, 900_000);

  it('are read locally in an OCR batch beside the scans: no request, cost 0, every check passed', async () => {
    const h = await startHarness();
    const preview = await h.engine.preview({ capability: 'ocr', paths: [INVOICES, FOLDER] });
    const local = preview.sample.filter((s) => s.source.startsWith(FOLDER));
    expect(local).toHaveLength(EINVOICES.length);
    for (const s of local) expect(s, s.source).toMatchObject({ units: 0, cost: 0 });

    const created = await h.engine.createBatch({ capability: 'ocr', paths: [FOLDER] });
    expect(created.problems).toEqual([]);
    const id = created.batch?.id ?? '';
    await h.run({ batchIds: [id] });
    const jobs = jobsOf(h.engine, id);
    expect(jobs).toHaveLength(EINVOICES.length);
    expect(jobs.map((j) => [j.state, j.cost, j.units, j.attempts])).toEqual(jobs.map(() => ['succeeded', 0, 0, 0]));
    // The API saw nothing of them.
    expect(sandboxIdempotencyKeys(h.sb).size).toBe(0);
    expect(attemptsOf(h.engine, id)).toEqual([]);
    expect((await h.engine.control.summary(id)).cost.spent).toBe(0);

    for (const e of EINVOICES) {
      const job = jobs.find((j) => j.source.endsWith(e.file));
      const detail = h.engine.jobDetail(job?.id ?? 0);
      expect(detail.result, e.file).toMatchObject({
        read_from: 'e-invoice',
        e_invoice: { syntax: e.syntax === 'PDF' ? 'CII' : e.syntax, attachment: e.syntax === 'PDF' ? 'factur-x.xml' : null },
        invoice: { invoiceNumber: e.invoice.number, vendor: e.invoice.seller.name, vendorVatId: e.invoice.seller.vatId },
      });
      expect(detail.review?.needsReview, e.file).toBe(false);
      expect(
        detail.review?.checks.filter((c) => c.ok !== true),
        e.file,
      ).toEqual([]);
    }
    const rows = h.engine.jobPage({ batchId: id, limit: 10, offset: 0 }).rows;
    for (const r of rows) expect(r.result, r.source).toMatch(/ · read from the e-invoice$/);
  });

  it('pass the CEN EN 16931 rules: the UBL file as shipped, and each exported again as UBL', async () => {
    for (const e of EINVOICES) {
      const bytes = readFileSync(join(FOLDER, e.file));
      // The file holds exactly the XML the builders make (the PDF as its embedded attachment).
      if (e.syntax === 'PDF') expect(bytes.includes(Buffer.from(einvoiceXml(e), 'utf8')), e.file).toBe(true);
      else expect(bytes.toString('utf8'), e.file).toBe(einvoiceXml(e));
      if (e.syntax === 'UBL') expect(await fatalRules(stylesheet, bytes.toString('utf8')), e.file).toEqual([]);
      const read = readEInvoiceXml(Buffer.from(einvoiceXml(e), 'utf8'));
      if (read.kind !== 'einvoice') throw new Error(`${e.file}: ${JSON.stringify(read)}`);
      const doc = ublDocument(read.invoice, FALLBACK);
      expect(doc.missing, e.file).toEqual([]);
      expect(doc.en16931, e.file).toBe(true);
      expect(await fatalRules(stylesheet, doc.xml), e.file).toEqual([]);
    }
  });
});
