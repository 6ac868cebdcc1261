// A review that ends and learns: the Marlowe sample prints a gross 10.00 over net + VAT. Correcting
// it re-runs the checks; Accept records who and when and empties the Needs review queue; every
// export carries the corrected values, the reading and the review; the supplier's corrected name
// and IBAN are offered (never applied) on its next invoice.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { csvRecords } from '../helpers/csv';
import { createAndRun, INVOICES, startHarness } from './harness';

const MARLOWE = 'invoice-marlowe-INV-2026-0088.png';
/** A valid IBAN (the standard's own example). */
const IBAN = 'GB82WEST12345698765432';

describe('invoice review', () => {
  it('corrects, re-checks, accepts, exports the correction with the reading, and teaches the supplier memory', async () => {
    const h = await startHarness();
    try {
      const run = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
      const e = h.engine;
      const queue = await e.reviews.queue(run.id);
      expect(queue.map((q) => [q.source.split('/').pop(), q.failed.map((c) => c.check)])).toEqual([[MARLOWE, ['net_plus_vat']]]);
      const job = queue[0]?.jobId ?? 0;
      expect(await e.reviews.counts(run.id)).toEqual({ invoices: 4, passed: 3, accepted: 0, rejected: 0, needsReview: 1 });

      const before = await e.reviews.view(job);
      expect(before).toMatchObject({ needsReview: true, decision: null, corrected: null, changed: [], suggestions: [] });
      expect(before.original?.gross).toBe(7_792_000);
      const readVendor = before.original?.vendor ?? '';
      const readIban = before.original?.iban ?? null;
      expect(readIban).not.toBe(IBAN);

      // A value that is not valid is refused, naming the field, and nothing is saved.
      await expect(
        e.reviews.save(job, {
          edits: [
            { field: 'gross', value: '769.20' },
            { field: 'issueDate', value: '31.02.2026' },
          ],
          by: 'ann',
        }),
      ).rejects.toThrow(/issueDate: "31\.02\.2026" is not a date/);
      expect((await e.reviews.view(job)).corrected).toBeNull();

      // The correction: the check turns green, but the invoice waits for a decision.
      const fixed = await e.reviews.save(job, { edits: [{ field: 'gross', value: '769.20' }], by: 'ann' });
      expect(fixed.checks.find((c) => c.check === 'net_plus_vat')).toMatchObject({ ok: true });
      expect(fixed).toMatchObject({ needsReview: true, decision: null, changed: ['gross'] });
      expect(fixed.corrected?.gross).toBe(7_692_000);
      // The job table's row shows the corrected total (what the exports carry), with the reading beside it.
      const listed = (needsReview: boolean) => e.jobPage({ batchId: run.id, needsReview, limit: 10, offset: 0 }).rows.find((r) => r.id === job)?.invoice;
      expect(listed(true)).toMatchObject({
        number: 'INV-2026-0088',
        vendor: readVendor,
        gross: 7_692_000,
        currency: 'GBP',
        read: { number: 'INV-2026-0088', vendor: readVendor, gross: 7_792_000, currency: 'GBP' },
      });
      // An invoice no review corrected has no reading beside its figures.
      const others = e.jobPage({ batchId: run.id, limit: 10, offset: 0 }).rows.filter((r) => r.id !== job);
      expect(others.map((r) => r.invoice?.read)).toEqual([null, null, null]);

      // Accept, with the supplier's name and IBAN corrected: who and when are recorded.
      const accepted = await e.reviews.save(job, {
        edits: [
          { field: 'vendor', value: 'Marlowe Print & Design Ltd' },
          { field: 'iban', value: IBAN },
        ],
        decision: 'accepted',
        note: 'total misprinted',
        by: 'ann',
      });
      expect(accepted).toMatchObject({ needsReview: false, decision: 'accepted', decidedBy: 'ann', note: 'total misprinted' });
      expect(accepted.decidedAt).toBeGreaterThan(0);
      expect(await e.reviews.queue(run.id)).toEqual([]);
      expect(await e.reviews.counts(run.id)).toEqual({ invoices: 4, passed: 3, accepted: 1, rejected: 0, needsReview: 0 });
      expect((await e.control.summary(run.id)).counts.needs_review).toBe(0);
      expect(e.jobPage({ batchId: run.id, needsReview: true, limit: 10, offset: 0 }).total).toBe(0);
      expect(listed(false)).toMatchObject({ vendor: 'Marlowe Print & Design Ltd', gross: 7_692_000, read: { vendor: readVendor, gross: 7_792_000 } });

      // Exports: the corrected values, the reading, the review.
      const invoicesCsv = join(h.dir, 'invoices.csv');
      await e.exportBatch(run.id, 'invoices', invoicesCsv);
      const row = csvRecords(await readFile(invoicesCsv, 'utf8')).find((r) => r.source?.endsWith(MARLOWE));
      expect(row).toMatchObject({
        vendor: 'Marlowe Print & Design Ltd',
        gross: '769.20',
        needs_review: 'no',
        check_net_plus_vat: 'ok',
        review_decision: 'accepted',
        reviewed_by: 'ann',
        review_note: 'total misprinted',
        iban: IBAN,
        corrected_fields: 'vendor; gross; iban',
      });
      expect(row?.reviewed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(row?.original_values).toBe(`vendor: ${readVendor} | gross: 779.20 | iban: ${readIban ?? ''}`);

      const json = join(h.dir, 'items.json');
      await e.exportBatch(run.id, 'json', json);
      const item = (JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown>[]).find((i) => String(i.source).endsWith(MARLOWE));
      expect(item).toMatchObject({
        vendor: 'Marlowe Print & Design Ltd',
        gross: 769.2,
        iban: IBAN,
        corrected: true,
        original: { vendor: readVendor, gross: 779.2, iban: readIban },
        review: { decision: 'accepted', by: 'ann', note: 'total misprinted' },
      });

      // The workbook (read with a second library) and the line items carry the corrected values too.
      const xlsxPath = join(h.dir, 'invoices.xlsx');
      await e.exportBatch(run.id, 'xlsx', xlsxPath);
      const sheet = XLSX.read(await readFile(xlsxPath), { type: 'buffer' }).Sheets.Invoices;
      const sheetRows = sheet ? XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet) : [];
      expect(sheetRows.find((r) => String(r.source).endsWith(MARLOWE))).toMatchObject({
        vendor: 'Marlowe Print & Design Ltd',
        gross: 769.2,
        iban: IBAN,
        review_decision: 'accepted',
        reviewed_by: 'ann',
      });

      // Each item's own files: the .json carries the corrected invoice, the reading and the review, like the JSON export.
      const files = join(h.dir, 'files');
      await e.exportFiles(run.id, files, 'files');
      const own = JSON.parse(await readFile(join(files, 'invoice-marlowe-INV-2026-0088.json'), 'utf8')) as Record<string, unknown>;
      expect(own).toMatchObject({
        invoice: { vendor: 'Marlowe Print & Design Ltd', gross: 7_692_000, iban: IBAN },
        corrected: true,
        original: { vendor: readVendor, gross: 7_792_000 },
        review: { decision: 'accepted', by: 'ann', note: 'total misprinted' },
      });
      expect((own.review as { at: string }).at).toMatch(/^\d{4}-\d\d-\d\dT/);
      // An invoice nobody reviewed keeps its result as it came.
      const unreviewed = JSON.parse(await readFile(join(files, 'invoice-aldenmoor-INV-2026-0012.json'), 'utf8')) as Record<string, unknown>;
      expect(unreviewed).not.toHaveProperty('review');
      expect(unreviewed).not.toHaveProperty('original');
      await e.reviews.save(job, { edits: [{ field: 'line.1.description', value: 'Vinyl banner 3 x 1 m' }], decision: 'accepted', by: 'ann' });
      const linesCsv = join(h.dir, 'lines.csv');
      await e.exportBatch(run.id, 'line-items', linesCsv);
      const lines = csvRecords(await readFile(linesCsv, 'utf8')).filter((r) => r.source?.endsWith(MARLOWE));
      expect(lines[0]).toMatchObject({ vendor: 'Marlowe Print & Design Ltd', line: '1', description: 'Vinyl banner 3 x 1 m' });

      const ubl = join(h.dir, 'ubl');
      await e.exportFiles(run.id, ubl, 'ubl');
      const xml = await readFile(join(ubl, 'invoice-marlowe-INV-2026-0088.xml'), 'utf8');
      expect(xml).toContain('Marlowe Print &amp; Design Ltd');
      // The corrected IBAN is the seller's account to pay (BT-84), in a credit transfer.
      expect(xml).toMatch(
        new RegExp(`<cac:PaymentMeans>\\s*<cbc:PaymentMeansCode>(58|30)</cbc:PaymentMeansCode>\\s*<cac:PayeeFinancialAccount>\\s*<cbc:ID>${IBAN}</cbc:ID>`),
      );
      // The notes say the values are as read only where the review did not correct them.
      expect(xml).not.toContain('the values are as read from the document.</cbc:Note>');
      expect(xml).toContain('<cbc:Note>Read by OCR with Batchdesk: the values are as read from the document, corrected in review where marked.</cbc:Note>');
      expect(xml).toMatch(/<cbc:Note>Corrected in review: [^<]*\bgross\b[^<]*\biban\b[^<]*\.<\/cbc:Note>/);
      expect(xml).toMatch(/<cbc:PayableAmount currencyID="\w+">769\.20<\/cbc:PayableAmount>/);
      expect(xml).not.toContain('NEEDS REVIEW');
      expect(xml).toMatch(/<cbc:Note>Reviewed in Batchdesk and accepted by ann on \d{4}-\d\d-\d\d\.<\/cbc:Note>/);

      // The supplier's next invoice: the memory offers its name and IBAN, marked, and applies nothing.
      const again = await createAndRun(h, { capability: 'ocr', paths: [join(INVOICES, MARLOWE)], allowResend: true });
      const next = (await e.reviews.queue(again.id))[0]?.jobId ?? 0;
      const offered = await e.reviews.view(next);
      expect(offered.corrected).toBeNull();
      expect(offered.original?.vendor).toBe(readVendor);
      expect(offered.suggestions.map((s) => [s.field, s.edit, s.value, s.fromJob])).toEqual([
        ['vendor', 'vendor', 'Marlowe Print & Design Ltd', job],
        ['iban', 'iban', IBAN, job],
      ]);

      // Rejected: out of the queue, counted as rejected.
      const rejected = await e.reviews.save(next, { decision: 'rejected', by: 'bob' });
      expect(rejected).toMatchObject({ needsReview: false, decision: 'rejected', decidedBy: 'bob' });
      expect(await e.reviews.counts(again.id)).toEqual({ invoices: 1, passed: 0, accepted: 0, rejected: 1, needsReview: 0 });
      // Its UBL file says so where the bookkeeper reads.
      await e.exportFiles(again.id, join(h.dir, 'ubl-again'), 'ubl');
      expect(await readFile(join(h.dir, 'ubl-again', 'invoice-marlowe-INV-2026-0088.xml'), 'utf8')).toMatch(
        /<cbc:Note>REJECTED in review by bob on \d{4}-\d\d-\d\d: do not book or pay\.<\/cbc:Note>/,
      );

      // A decided invoice whose values change goes back to the queue: the decision was made on other values.
      const reopened = await e.reviews.save(job, { edits: [{ field: 'net', value: '641.01' }], by: 'ann' });
      expect(reopened).toMatchObject({ needsReview: true, decision: null, decidedBy: null });
      expect(await e.reviews.counts(run.id)).toMatchObject({ accepted: 0, needsReview: 1 });
    } finally {
      h.engine.close();
    }
  });

  it('accepted as read, despite its failed check: the row and the UBL file say accepted, not needs review', async () => {
    const h = await startHarness();
    try {
      const run = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
      const e = h.engine;
      const job = (await e.reviews.queue(run.id))[0]?.jobId ?? 0;
      const rowOf = () => e.jobPage({ batchId: run.id, limit: 10, offset: 0 }).rows.find((r) => r.id === job);
      expect(rowOf()).toMatchObject({ failedChecks: ['net_plus_vat'], reviewDecision: null });

      await e.reviews.save(job, { decision: 'accepted', by: 'ann' });
      // The failed check stays to be seen, beside the decision the window shows instead of the flag.
      expect(rowOf()).toMatchObject({ failedChecks: ['net_plus_vat'], reviewDecision: 'accepted' });
      expect(
        e
          .jobPage({ batchId: run.id, limit: 10, offset: 0 })
          .rows.filter((r) => r.id !== job)
          .map((r) => r.reviewDecision),
      ).toEqual([null, null, null]);

      const ubl = join(h.dir, 'ubl');
      await e.exportFiles(run.id, ubl, 'ubl');
      const xml = await readFile(join(ubl, MARLOWE.replace(/\.png$/, '.xml')), 'utf8');
      expect(xml).not.toContain('NEEDS REVIEW');
      expect(xml).toMatch(
        /<cbc:Note>Reviewed in Batchdesk and accepted by ann on \d{4}-\d\d-\d\d, despite 1 failed check\(s\) of Batchdesk(&apos;|')s, named below\.<\/cbc:Note>/,
      );
      expect(xml).toMatch(/<cbc:Note>Accepted despite net_plus_vat: [^<]+<\/cbc:Note>/);
    } finally {
      h.engine.close();
    }
  });

  it('finds the supplier by VAT id when its name is read another way, and offers its usual VAT rate', async () => {
    const h = await startHarness();
    try {
      const e = h.engine;
      const ALDENMOOR = 'invoice-aldenmoor-INV-2026-0012.pdf';
      const first = await createAndRun(h, { capability: 'ocr', paths: [join(INVOICES, ALDENMOOR)] });
      const job = first.jobs[0]?.id ?? 0;
      const read = (await e.reviews.view(job)).original;
      expect(read?.vendorVatId).toBeTruthy();
      const rate = String(read?.vat[0]?.rate);
      await e.reviews.save(job, { edits: [{ field: 'iban', value: IBAN }], decision: 'accepted', by: 'ann' });

      // The same supplier's next invoice, its name misread and its VAT rate too.
      const second = await createAndRun(h, { capability: 'ocr', paths: [join(INVOICES, ALDENMOOR)], allowResend: true });
      const next = second.jobs[0]?.id ?? 0;
      const row = e.db.prepare(`SELECT result_json FROM jobs WHERE id = ?`).get(next) as { result_json: string };
      const result = JSON.parse(row.result_json) as { invoice: Record<string, unknown> & { vat: { rate: number; amount: number | null }[] } };
      result.invoice.vendor = 'A1denmoor Supp1ies';
      result.invoice.vat = result.invoice.vat.map((v) => ({ ...v, rate: 17 }));
      e.db.prepare(`UPDATE jobs SET result_json = ? WHERE id = ?`).run(JSON.stringify(result), next);

      const offered = (await e.reviews.view(next)).suggestions;
      expect(offered.map((x) => [x.field, x.value, x.fromJob])).toEqual([
        ['vendor', read?.vendor, job],
        ['iban', IBAN, job],
        ['vatRate', rate, job],
      ]);
      // Applying one is a correction like any other, by the edit the suggestion names.
      const vatRate = offered.find((x) => x.field === 'vatRate');
      const applied = await e.reviews.save(next, { edits: [{ field: vatRate?.edit ?? '', value: vatRate?.value ?? '' }], by: 'ann' });
      expect(applied.corrected?.vat[0]?.rate).toBe(Number(rate));
      expect(applied.suggestions.map((x) => x.field)).toEqual(['vendor', 'iban']);
    } finally {
      h.engine.close();
    }
  });

  it('refuses a job that is not an invoice, saying how to find one', async () => {
    const h = await startHarness();
    try {
      await expect(h.engine.reviews.view(999)).rejects.toThrow(/Job 999 has no invoice to review.*batchdesk review --list/);
      // The window is given the same as a code, and words it without the command.
      await expect(h.engine.reviews.view(999)).rejects.toMatchObject({ refusal: { code: 'no_invoice_to_review', job: 999 } });
    } finally {
      h.engine.close();
    }
  });
});
