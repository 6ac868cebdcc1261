// E-invoices in an OCR batch are read on this computer: an XRechnung in UBL, one in CII and a
// ZUGFeRD/Factur-X PDF (its CII embedded) make no request to the API (the sandbox sees no key,
// the engine records no attempt), cost 0 in the estimate and in the spend, and give the XML's
// values to the same checks and exports as an OCR'd invoice; a scanned invoice beside them is
// still sent to OCR, and a broken XML is named with its cause without losing the others.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { ReadOnlyView } from '../../src/main/engine/reader/read-only-view';
import { databaseFile } from '../../src/main/engine/data-dir';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../helpers/csv';
import { readZip } from '../helpers/zip';
import { ciiXml, NORDLICHT, NORDLICHT_READ, pdfWithAttachment, ublXml, type TestEInvoice } from '../helpers/einvoice-files';
import { attemptsOf, INVOICES, jobsOf, sandboxIdempotencyKeys, startHarness } from './harness';

const CII_INVOICE: TestEInvoice = {
  ...NORDLICHT,
  number: 'RE-2026-1108',
  lines: [{ name: 'Wartung Oktober', quantity: 1, price: 25_000, rate: 19, category: 'S' }],
};
const PDF_INVOICE: TestEInvoice = {
  ...NORDLICHT,
  number: 'RE-2026-1109',
  lines: [{ name: 'Regalsystem', quantity: 3, price: 11_990, rate: 19, category: 'S' }],
};
const CREDIT: TestEInvoice = {
  ...NORDLICHT,
  number: 'GS-2026-0005',
  credit: true,
  lines: [{ name: 'Gutschrift Rücksendung', quantity: 2, price: 489, rate: 19, category: 'S' }],
};

describe('e-invoices in an OCR batch', () => {
  it('are read locally, free, with the XML values; a broken one is named; a scan is still sent', async () => {
    const h = await startHarness();
    const folder = join(h.dir, 'inbox');
    await mkdir(folder);
    await writeFile(join(folder, 'xrechnung-ubl.xml'), ublXml(NORDLICHT));
    await writeFile(join(folder, 'xrechnung-cii.xml'), ciiXml(CII_INVOICE));
    await writeFile(join(folder, 'gutschrift.xml'), ublXml(CREDIT));
    await writeFile(join(folder, 'zugferd.pdf'), pdfWithAttachment('factur-x.xml', ciiXml(PDF_INVOICE), 'Rechnung RE-2026-1109'));
    await writeFile(join(folder, 'broken.xml'), ublXml(NORDLICHT).replace('</cbc:ID>', '</cbc:Id>'));
    const scan = 'invoice-aldenmoor-INV-2026-0012.pdf';
    await copyFile(join(INVOICES, scan), join(folder, scan));

    // The estimate: the four e-invoices at 0, the scan at its pages.
    const preview = await h.engine.preview({ capability: 'ocr', paths: [folder] });
    const byName = new Map(preview.sample.map((s) => [s.source.split('/').pop(), s]));
    for (const name of ['xrechnung-ubl.xml', 'xrechnung-cii.xml', 'gutschrift.xml', 'zugferd.pdf'])
      expect(byName.get(name)).toMatchObject({ units: 0, cost: 0 });
    expect(byName.get(scan)?.cost).toBeGreaterThan(0);
    expect(preview.plan.estimatedCost).toBe(byName.get(scan)?.cost);
    // The e-invoices counted apart, so the window can say why they cost nothing.
    expect([preview.plan.count, preview.plan.einvoices]).toEqual([5, 4]);
    // The default name counts e-invoices as e-invoices, not as scans.
    expect(preview.plan.nameParts?.counts).toEqual([
      { noun: 'scan', n: 1 },
      { noun: 'einvoice', n: 4 },
    ]);

    const created = await h.engine.createBatch({ capability: 'ocr', paths: [folder] });
    const id = created.batch?.id ?? '';
    expect(created.batch?.name).toBe('inbox (1 scan, 4 e-invoices)');
    expect(created.problems).toMatchObject([
      {
        source: join(folder, 'broken.xml'),
        row: null,
        message: expect.stringMatching(
          new RegExp(
            `^${join(folder, 'broken.xml')} is not a readable e-invoice: its XML is broken \\(line \\d+, column \\d+: .*\\)\\. Ask the sender for the e-invoice again`,
          ),
        ),
      },
    ]);
    await h.run({ batchIds: [id] });

    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => [j.source.split('/').pop(), j.state])).toEqual(
      expect.arrayContaining([
        ['xrechnung-ubl.xml', 'succeeded'],
        ['xrechnung-cii.xml', 'succeeded'],
        ['gutschrift.xml', 'succeeded'],
        ['zugferd.pdf', 'succeeded'],
        [scan, 'succeeded'],
      ]),
    );
    expect(jobs).toHaveLength(5);
    // Only the scan went to the API: one request, one attempt.
    const local = jobs.filter((j) => !j.source.endsWith(scan));
    const sent = jobs.find((j) => j.source.endsWith(scan));
    expect(local.map((j) => [j.cost, j.units, j.attempts])).toEqual(local.map(() => [0, 0, 0]));
    expect([...sandboxIdempotencyKeys(h.sb).keys()]).toEqual([sent?.idempotency_key]);
    expect(attemptsOf(h.engine, id).map((a) => a.job_id)).toEqual([sent?.id]);
    const summary = await h.engine.control.summary(id);
    expect(summary.cost.spent).toBe(sent?.cost);

    // The XML's values, checked like any invoice, and marked where the item is shown.
    const detail = (name: string) => h.engine.jobDetail(jobs.find((j) => j.source.endsWith(name))?.id ?? 0);
    const ubl = detail('xrechnung-ubl.xml');
    expect(ubl.result).toMatchObject({ read_from: 'e-invoice', e_invoice: { syntax: 'UBL', attachment: null }, invoice: NORDLICHT_READ });
    expect(ubl.review?.needsReview).toBe(false);
    expect(ubl.review?.checks.filter((c) => c.ok !== true)).toEqual([]);
    expect(detail('xrechnung-cii.xml').result).toMatchObject({
      e_invoice: { syntax: 'CII' },
      invoice: { invoiceNumber: 'RE-2026-1108', net: 2_500_000, gross: 2_975_000 },
    });
    expect(detail('zugferd.pdf').result).toMatchObject({
      read_from: 'e-invoice',
      e_invoice: { syntax: 'CII', attachment: 'factur-x.xml' },
      invoice: { invoiceNumber: 'RE-2026-1109', vendor: 'Nordlicht Handels GmbH', net: 3_597_000, gross: 4_280_400 },
    });
    expect(detail('gutschrift.xml').result).toMatchObject({ invoice: { documentType: 'credit-note', gross: 116_400 } });
    const rows = h.engine.jobPage({ batchId: id, limit: 10, offset: 0 }).rows;
    expect(rows.find((r) => r.source.endsWith('zugferd.pdf'))?.result).toBe('RE-2026-1109 · Nordlicht Handels GmbH · 428.04 EUR · read from the e-invoice');
    expect(rows.find((r) => r.source.endsWith(scan))?.result).not.toMatch(/e-invoice/);
    // The row's figures, for the window to write the amount its own way (not from the line above).
    expect(rows.find((r) => r.source.endsWith('zugferd.pdf'))?.invoice).toEqual({
      number: 'RE-2026-1109',
      vendor: 'Nordlicht Handels GmbH',
      gross: 4_280_400,
      currency: 'EUR',
      fromEInvoice: true,
      read: null,
    });
    expect(rows.find((r) => r.source.endsWith(scan))?.invoice?.fromEInvoice).toBe(false);
    // The window's read-only connection gives the same rows.
    const view = ReadOnlyView.open(databaseFile(h.dir));
    try {
      expect(view.jobPage({ batchId: id, limit: 10, offset: 0 })).toEqual(h.engine.jobPage({ batchId: id, limit: 10, offset: 0 }));
    } finally {
      view.close();
    }
    // The scan went to the API, so the batch records where; the e-invoices went nowhere.
    expect(summary.sent_to).not.toBeNull();

    // Exports as for any invoice: CSV rows, line items, UBL (the credit note as a CreditNote).
    const csv = join(h.dir, 'invoices.csv');
    expect(await h.engine.exportBatch(id, 'invoices', csv)).toBe(5);
    const inv = csvRecords(await readFile(csv, 'utf8')).find((r) => r.source?.endsWith('xrechnung-ubl.xml'));
    expect(inv).toMatchObject({ invoice_number: 'RE-2026-1107', vendor_vat_id: 'DE123456789', net: '98.83', gross: '112.82', needs_review: 'no' });
    const all = join(h.dir, 'items.csv');
    await h.engine.exportBatch(id, 'csv', all);
    const items = csvRecords(await readFile(all, 'utf8'));
    expect(items.map((r) => [r.source?.split('/').pop(), r.read_from])).toEqual(
      expect.arrayContaining([
        ['zugferd.pdf', 'read from the e-invoice'],
        [scan, 'OCR'],
      ]),
    );
    const out = join(h.dir, 'ubl');
    expect((await h.engine.exportFiles(id, out, 'ubl')).written).toBe(5);
    expect((await readdir(out)).sort()).toEqual([
      'en16931-report.csv',
      'gutschrift.xml',
      'invoice-aldenmoor-INV-2026-0012.xml',
      'xrechnung-cii.xml',
      'xrechnung-ubl.xml',
      'zugferd.xml',
    ]);
    // The window's zip download (GET /files/ID.zip streams engine.exportFilesZip) carries the same
    // EN 16931 report as the folder, beside the same UBL files.
    const zipPath = join(h.dir, 'files.zip');
    const zipOut = createWriteStream(zipPath);
    const zipped = await h.engine.exportFilesZip(id, zipOut);
    if (!zipOut.closed) await once(zipOut, 'close');
    const entries = await readZip(zipPath);
    const folderReport = await readFile(join(out, 'en16931-report.csv'), 'utf8');
    expect(folderReport.startsWith('\uFEFFitem,file,en16931,missing_business_terms\r\n')).toBe(true);
    expect(csvRecords(folderReport.slice(1))).toHaveLength(5);
    expect(entries.get('en16931-report.csv')?.toString('utf8')).toBe(folderReport);
    for (const name of ['gutschrift.xml', 'xrechnung-ubl.xml', 'zugferd.xml'])
      expect(entries.get(name)?.toString('utf8')).toBe(await readFile(join(out, name), 'utf8'));
    expect(zipped.ubl).toEqual({ ...(await h.engine.exportFiles(id, join(h.dir, 'ubl-again'), 'ubl')).ubl, report: 'en16931-report.csv' });
    const credit = await readFile(join(out, 'gutschrift.xml'), 'utf8');
    expect(credit).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(credit).toMatch(/<cbc:Note>Read by Batchdesk from the e-invoice(&apos;|')s XML/);
    expect(credit).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>');
    expect(await readFile(join(out, 'invoice-aldenmoor-INV-2026-0012.xml'), 'utf8')).toContain('<cbc:Note>Read by OCR with Batchdesk');

    // Run again (a resume): nothing is read or sent twice.
    await h.run({ batchIds: [id] });
    expect([...sandboxIdempotencyKeys(h.sb).keys()]).toHaveLength(1);
    expect(jobsOf(h.engine, id).map((j) => j.updated_at)).toEqual(jobs.map((j) => j.updated_at));
  });
});
