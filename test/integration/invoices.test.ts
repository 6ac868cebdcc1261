// Invoices read by OCR are checked in their success commit: the sample whose printed total is
// not net + VAT needs review (status, job list, dialog, exports), a second reading of the same
// invoice in another batch is a duplicate, and a data folder from before the checks is checked
// when it is opened.
import { appendFile, copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Engine } from '../../src/main/engine/engine';
// migrations.ts: the step that adds invoice_reviews (its 9th; its comments count from 1 but skip one).
const CHECKS_STEP = 9;
import { csvRecords } from '../helpers/csv';
import { validateUbl } from '../../scripts/validate-ubl';
import { createAndRun, INVOICES, noKeychain, startHarness, TEST_CONFIG } from './harness';

const MARLOWE = 'invoice-marlowe-INV-2026-0088.png';

describe('invoice checks', () => {
  it('flags the invoice whose gross is not net + VAT, and only it, everywhere the batch is seen', async () => {
    const h = await startHarness();
    const run = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
    expect(run.summary.counts).toMatchObject({ succeeded: 4, needs_review: 1 });

    const all = h.engine.jobPage({ batchId: run.id, limit: 10, offset: 0 }).rows;
    expect(all.map((r) => [r.source.split('/').pop(), r.failedChecks])).toEqual(
      expect.arrayContaining([
        ['invoice-aldenmoor-INV-2026-0012.pdf', []],
        ['invoice-copperfinch-INV-2026-0047.pdf', []],
        ['invoice-halvorsen-INV-2026-0103.pdf', []],
        [MARLOWE, ['net_plus_vat']],
      ]),
    );
    const flagged = h.engine.jobPage({ batchId: run.id, needsReview: true, limit: 10, offset: 0 });
    expect(flagged.total).toBe(1);
    const marlowe = flagged.rows[0];
    expect(marlowe?.source).toMatch(new RegExp(`${MARLOWE}$`));
    expect(h.engine.jobNeighbours({ batchId: run.id, needsReview: true }, marlowe?.id ?? 0)).toEqual({ previous: null, next: null });

    const detail = h.engine.jobDetail(marlowe?.id ?? 0);
    expect(detail.review?.needsReview).toBe(true);
    const failed = detail.review?.checks.find((c) => c.check === 'net_plus_vat');
    expect(failed).toMatchObject({ ok: false, detail: expect.stringMatching(/but the invoice says .* \(10\.00 more\)/) });
    // Every other check ran on it and passed: the vendor's country and rate were read too.
    expect(detail.review?.checks.filter((c) => c.check !== 'net_plus_vat').map((c) => [c.check, c.ok])).toEqual([
      ['fields_present', true],
      ['line_items_sum', true],
      ['vat_rate', true],
      ['vat_amount', true],
      ['due_date', true],
      ['duplicate', true],
    ]);

    // Exports: JSON items carry needs_review and checks; the invoices CSV one row per invoice.
    const json = join(h.dir, 'out.json');
    await h.engine.exportBatch(run.id, 'json', json);
    const items = JSON.parse(await readFile(json, 'utf8')) as {
      source: string;
      needs_review: boolean;
      checks: { check: string; ok: boolean | null; detail: string }[];
      gross: number;
      line_items: unknown[];
    }[];
    expect(items.filter((i) => i.needs_review).map((i) => i.source.split('/').pop())).toEqual([MARLOWE]);
    expect(items.every((i) => i.checks.length === 7 && typeof i.gross === 'number' && i.line_items.length > 0)).toBe(true);
    expect(items.find((i) => i.source.endsWith(MARLOWE))).toMatchObject({ net: 641, vat_rates: [20], vat_amount: 128.2, gross: 779.2 });

    const invoicesCsv = join(h.dir, 'invoices.csv');
    expect(await h.engine.exportBatch(run.id, 'invoices', invoicesCsv)).toBe(4);
    const rows = csvRecords(await readFile(invoicesCsv, 'utf8'));
    expect(rows).toHaveLength(4);
    const m = rows.find((r) => r.source?.endsWith(MARLOWE));
    expect(m).toMatchObject({ needs_review: 'yes', failed_checks: 'net_plus_vat', check_net_plus_vat: 'failed', check_vat_rate: 'ok', vendor_country: 'GB' });
    expect(m?.review_notes).toMatch(/^net_plus_vat: .*10\.00 more/);
    expect(rows.filter((r) => r.needs_review === 'no')).toHaveLength(3);

    const linesCsv = join(h.dir, 'lines.csv');
    const lineCount = await h.engine.exportBatch(run.id, 'line-items', linesCsv);
    const lines = csvRecords(await readFile(linesCsv, 'utf8'));
    expect(lines).toHaveLength(lineCount);
    const perInvoice = items.reduce((n, i) => n + i.line_items.length, 0);
    expect(lineCount).toBe(perInvoice);
    // The two-page invoice's lines come from both pages.
    expect(lines.filter((l) => l.source?.endsWith('invoice-halvorsen-INV-2026-0103.pdf')).length).toBeGreaterThan(20);

    // One UBL file per invoice, named after the document.
    const ubl = join(h.dir, 'ubl');
    const written = await h.engine.exportFiles(run.id, ubl, 'ubl');
    expect(written.written).toBe(4);
    expect((await readdir(ubl)).sort()).toEqual([
      'en16931-report.csv',
      'invoice-aldenmoor-INV-2026-0012.xml',
      'invoice-copperfinch-INV-2026-0047.xml',
      'invoice-halvorsen-INV-2026-0103.xml',
      'invoice-marlowe-INV-2026-0088.xml',
    ]);
    expect(await readFile(join(ubl, 'invoice-aldenmoor-INV-2026-0012.xml'), 'utf8')).toContain('<cbc:ID>INV-2026-0012</cbc:ID>');
    // An invoice that needs review says so where the bookkeeper reads.
    expect(await readFile(join(ubl, 'invoice-marlowe-INV-2026-0088.xml'), 'utf8')).toMatch(
      /<cbc:Note>NEEDS REVIEW: 1 of Batchdesk(&apos;|')s checks failed\. Do not book or pay before checking\.<\/cbc:Note>\s*<cbc:Note>net_plus_vat: /,
    );
    // The export report: the three complete invoices are EN 16931; the PNG, which prints no buyer
    // country and a total 10.00 off, is not declared, and says why (test/unit/exporters/en16931-rules.test.ts
    // runs the CEN rules on the same readings).
    expect(written.ubl).toEqual({ declared: 3, notDeclared: 1, report: join(ubl, 'en16931-report.csv') });
    const report = await readFile(join(ubl, 'en16931-report.csv'), 'utf8');
    expect(report.startsWith('\uFEFFitem,file,en16931,missing_business_terms\r\n')).toBe(true);
    expect(report).toContain('invoice-aldenmoor-INV-2026-0012.xml,yes,\r\n');
    expect(report).toMatch(
      /invoice-marlowe-INV-2026-0088\.xml,no,"?BT-55 Buyer country code: the buyer address read names no country; BR-CO-15: net 641\.00 \+ VAT 128\.20 is not the total printed, 779\.20/,
    );
    for (const name of ['invoice-aldenmoor-INV-2026-0012.xml', 'invoice-copperfinch-INV-2026-0047.xml', 'invoice-halvorsen-INV-2026-0103.xml']) {
      expect(await readFile(join(ubl, name), 'utf8'), name).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>');
    }
    // Each validates against the UBL 2.1 schema (test/fixtures/ubl-2.1, libxml2).
    for (const name of (await readdir(ubl)).filter((n) => n.endsWith('.xml'))) {
      const v = await validateUbl(await readFile(join(ubl, name), 'utf8'));
      expect({ name, ...v }).toEqual({ name, valid: true, errors: [] });
    }
  });

  it('a second reading of the same invoice (another file, another batch) is a duplicate naming the first', async () => {
    const h = await startHarness();
    const first = await createAndRun(h, { capability: 'ocr', paths: [join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf')] });
    expect(first.summary.counts.needs_review).toBe(0);
    // The same invoice saved again (other bytes, so not skipped as the same file).
    const rescans = join(h.dir, 'rescans');
    await mkdir(rescans);
    const copy = join(rescans, 'aldenmoor-rescan.pdf');
    await copyFile(join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'), copy);
    await appendFile(copy, '\n% saved again\n');
    const second = await createAndRun(h, { capability: 'ocr', paths: [copy] });
    expect(second.summary.counts.needs_review).toBe(1);
    const job = h.engine.jobDetail(second.jobs[0]?.id ?? 0);
    expect(job.review?.checks.find((c) => c.check === 'duplicate')).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`item 1 of batch ${first.id}`),
    });
    // The first reading stays as it was.
    expect((await h.engine.control.summary(first.id)).counts.needs_review).toBe(0);

    // The vendor's name read another way, the same VAT id and number: still the same invoice.
    const firstInvoice = h.engine.jobDetail(first.jobs[0]?.id ?? 0);
    const inv = (firstInvoice.result as { invoice: Record<string, unknown> }).invoice;
    const renamed = { text: 'x', pages: [], fields: {}, invoice: { ...inv, vendor: 'ALDENMOOR OFFICE SUPPLIES', vendorVatId: 'de 284 719 365' } };
    const review = h.engine.invoices.record({ id: second.jobs[0]?.id ?? 0, batchId: second.id }, JSON.stringify(renamed));
    expect(review.checks.find((c) => c.check === 'duplicate')).toMatchObject({ ok: false, detail: expect.stringContaining(`batch ${first.id}`) });
  });

  it('a data folder from before the checks has its invoices checked when it is opened', async () => {
    const h = await startHarness();
    const run = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
    h.engine.close();
    // Back to the schema before the checks (and the counters after them): no checks table,
    // results without the engine's reading of the invoice.
    const db = new Database(join(h.dir, 'batchdesk.sqlite'));
    for (const t of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'batch_stats_%'`).all() as { name: string }[])
      db.exec(`DROP TRIGGER ${t.name}`);
    db.exec(`DROP TABLE invoice_reviews; DROP TABLE batch_stats; DROP TABLE opt_outs;
      DROP INDEX jobs_sample; ALTER TABLE jobs DROP COLUMN sample; ALTER TABLE batches DROP COLUMN sampling;
      ALTER TABLE keys DROP COLUMN rpm; ALTER TABLE batches DROP COLUMN key_id; ALTER TABLE batches DROP COLUMN client;
      DROP INDEX batches_compare_group; DROP INDEX batches_compare_of; ALTER TABLE batches DROP COLUMN compare_of; ALTER TABLE batches DROP COLUMN compare_group;
      DROP TABLE watch_files; DROP TABLE watch_batches; DROP TABLE watches;
      ALTER TABLE batches DROP COLUMN scheduled_at; ALTER TABLE batches DROP COLUMN quiet_hours; ALTER TABLE batches DROP COLUMN quiet_zone;
      ALTER TABLE batches DROP COLUMN recipient_gap_ms; DROP TABLE recipient_sends;
      DROP TRIGGER job_fingerprints_update; DROP TRIGGER job_fingerprints_delete; DROP TABLE job_fingerprints;
      ALTER TABLE batches DROP COLUMN api;
      DROP INDEX attempts_in_flight; DROP TABLE supplier_memory; DROP TABLE retention_rules; DROP TABLE retention_log; DROP INDEX jobs_read_here;
      ALTER TABLE batches DROP COLUMN pause_code; DROP TABLE skipped_rows; DROP INDEX jobs_file_path;`);
    const rows = db.prepare(`SELECT id, result_json FROM jobs WHERE batch_id = ?`).all(run.id) as { id: number; result_json: string }[];
    for (const r of rows) {
      const { invoice: _dropped, ...old } = JSON.parse(r.result_json) as Record<string, unknown>;
      db.prepare(`UPDATE jobs SET result_json = ? WHERE id = ?`).run(JSON.stringify(old), r.id);
    }
    // The steps applied before the checks' (step 9 of migrations.ts); every later step runs again, so
    // what each of them adds is dropped above.
    db.pragma(`user_version = ${CHECKS_STEP - 1}`);
    db.close();
    const reopened = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: h.env, config: TEST_CONFIG });
    try {
      expect((await reopened.control.summary(run.id)).counts).toMatchObject({ succeeded: 4, needs_review: 1 });
      const flagged = reopened.jobPage({ batchId: run.id, needsReview: true, limit: 10, offset: 0 });
      expect(flagged.rows.map((r) => r.source.split('/').pop())).toEqual([MARLOWE]);
    } finally {
      reopened.close();
    }
  });
});
