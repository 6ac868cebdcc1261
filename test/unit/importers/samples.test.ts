// The shipped samples must import cleanly, and must be exactly what scripts/make-samples.ts writes.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFiles, importMessageCsv } from '../../../src/main/engine/importers';
import { HEAD_BYTES, wavDurationSeconds } from '../../../src/shared/media';
import { redact } from '../../../src/main/engine/privacy/personal-data';
import { PERSONAL_DATA_KINDS } from '../../../src/shared/privacy-kinds';
import { invoiceFields } from '../../../src/sandbox/invoice-extract';
import { transcriptSegments } from '../../../src/sandbox/results';
import { readInvoice } from '../../../src/shared/invoices/read-invoice';
import {
  DEFAULT_SAMPLES_DIR,
  INVOICES,
  MAX_SAMPLE_BYTES,
  NOVEMBER_INVOICES,
  PERSONAL_DATA,
  PERSONAL_RECORDING,
  PNG_INVOICE,
  PROBLEM_ROWS,
  RECORDINGS,
  buildSamples,
  checkPdfXref,
  dueDateOf,
  invoiceText,
  netCents,
  printedGrossCents,
  readPngText,
  transcriptOf,
  vatCentsOf,
} from '../../../scripts/make-samples';

const dir = DEFAULT_SAMPLES_DIR;

describe('resources/samples', () => {
  it('are up to date and deterministic: the committed bytes equal a fresh build, twice', async () => {
    const first = buildSamples();
    const second = buildSamples();
    expect([...first.keys()].sort()).toEqual([...second.keys()].sort());
    for (const [rel, bytes] of first) {
      expect(second.get(rel)?.equals(bytes), rel).toBe(true);
      const onDisk = await readFile(join(dir, rel));
      expect(onDisk.equals(bytes), `${rel} differs from scripts/make-samples.ts output; run npx tsx scripts/make-samples.ts`).toBe(true);
    }
  });

  it('recordings: 3 WAVs of 3-6 s under 100 KB, transcript in ICMT, imported with exact seconds', async () => {
    const { items, problems } = await importFiles([join(dir, 'recordings')], 'transcribe');
    expect(problems).toEqual([]);
    expect(items).toHaveLength(3);
    for (const item of items) {
      const bytes = await readFile(item.path);
      const rec = RECORDINGS.find((r) => item.path.endsWith(r.file));
      expect(rec, item.path).toBeDefined();
      const seconds = wavDurationSeconds(bytes.subarray(0, HEAD_BYTES), bytes.length);
      expect(seconds).toBeCloseTo(rec?.seconds ?? 0, 3);
      expect(bytes.length).toBeLessThan(100_000);
      expect(item).toMatchObject({ mime: 'audio/wav', units: Math.ceil(rec?.seconds ?? 0), unitsExact: true });
      const icmt = bytes.indexOf('ICMT');
      expect(icmt).toBeGreaterThan(0);
      expect(icmt).toBeLessThan(HEAD_BYTES); // in the head, where the sandbox looks
      const size = bytes.readUInt32LE(icmt + 4);
      expect(bytes.subarray(icmt + 8, icmt + 8 + size - 1).toString('latin1')).toBe(transcriptOf(rec ?? { file: '', seconds: 0, title: '', turns: [] }));
    }
    expect(items.map((i) => i.units)).toEqual([6, 5, 4]);
  });

  it('invoices: 3 PDFs (one with 2 pages) and a PNG import as 1, 1, 2 and 1 pages', async () => {
    const { items, problems } = await importFiles([join(dir, 'invoices')], 'ocr');
    expect(problems).toEqual([]);
    const pages = Object.fromEntries(items.map((i) => [i.path.slice(dir.length + 10), [i.mime, i.units, i.unitsExact]]));
    expect(pages).toEqual({
      [INVOICES[0]?.file ?? '']: ['application/pdf', 1, true],
      [INVOICES[1]?.file ?? '']: ['application/pdf', 1, true],
      [INVOICES[2]?.file ?? '']: ['application/pdf', 2, true],
      [PNG_INVOICE.file]: ['image/png', 1, true],
    });
    for (const inv of INVOICES) {
      const pdf = await readFile(join(dir, 'invoices', inv.file));
      expect(checkPdfXref(pdf), inv.file).toEqual([]);
      const text = pdf.toString('latin1');
      expect(text).toContain(`(${inv.vendor}) Tj`);
      expect(text).toContain(`: ${inv.number}) Tj`);
      expect(text).toContain(`(${inv.vatIdLabel}: ${inv.vatIdPrinted}) Tj`);
      expect(text).toContain('/BaseFont /Helvetica');
    }
    // The German invoice: German labels and number format, umlauts as single WinAnsi bytes.
    const first = (await readFile(join(dir, 'invoices', INVOICES[0]?.file ?? ''))).toString('latin1');
    expect(first).toContain('(USt-IdNr.: DE284719365) Tj');
    expect(first).toContain('(Rechnungsnummer: INV-2026-0012) Tj');
    expect(first).toContain('(Rechnungsdatum: 03.10.2026) Tj');
    expect(first).toContain('(Zahlbar bis: 17.10.2026) Tj');
    expect(first).toContain('(2 x B\xfcrostuhl, ergonomisch @ 289,00) Tj');
    expect(first).toMatch(/\(Nettobetrag:\) Tj\nET\nBT\n\/F1 11 Tf\n1 0 0 1 440 \d+ Tm\n\(1\.234,50 EUR\) Tj/);
    expect(first).toContain('(USt. 19 %:) Tj');
    expect(first).toContain('(234,56 EUR) Tj');
    expect(first).toContain('(Gesamtbetrag:) Tj');
    expect(first).toContain('(1.469,06 EUR) Tj');
    const copperfinch = (await readFile(join(dir, 'invoices', INVOICES[1]?.file ?? ''))).toString('latin1');
    for (const s of [
      '(VAT Reg No: GB 318 4472 06) Tj',
      '(Invoice date: 7 October 2026) Tj',
      '(Due date: 21 October 2026) Tj',
      '(575.00 GBP) Tj',
      '(VAT 20%:) Tj',
      '(115.00 GBP) Tj',
      '(Total due:) Tj',
      '(690.00 GBP) Tj',
    ]) {
      expect(copperfinch).toContain(s);
    }
    const halvorsen = (await readFile(join(dir, 'invoices', INVOICES[2]?.file ?? ''))).toString('latin1');
    for (const s of [
      '(Org.nr / VAT: NO 981442503 MVA) Tj',
      '(Invoice date: 15.10.2026) Tj',
      '(14,701.50 NOK) Tj',
      '(VAT \\(MVA\\) 25%:) Tj',
      '(3,675.38 NOK) Tj',
      '(18,376.88 NOK) Tj',
      '(Payable within 30 days. Thank you.) Tj',
      '(Halvorsen Freight & Storage AS \\(continued, page 2\\)) Tj',
    ]) {
      expect(halvorsen).toContain(s);
    }
    const png = readPngText(await readFile(join(dir, 'invoices', PNG_INVOICE.file)));
    expect(png.Description?.split('\n')[0]).toBe(PNG_INVOICE.vendor);
    expect(png.Description).toBe(invoiceText(PNG_INVOICE));
    expect(png.Description).toContain('VAT number: GB 562 8841 30');
    expect(png.Description).toContain(`Invoice number: ${PNG_INVOICE.number}`);
    expect(png.Description).toContain('Date: 09/10/2026\nPayment due: 08/11/2026');
    expect(png.Description).toContain('Net:  641.00 GBP\nVAT 20%:  128.20 GBP\nTotal:  779.20 GBP');
  });

  it('invoices: net is the sum of the lines, VAT net x rate rounded half up, and only marlowe has a wrong total (by 10.00)', () => {
    const sums = [...INVOICES, PNG_INVOICE].map((inv) => ({
      file: inv.file,
      net: netCents(inv),
      lines: inv.items.reduce((a, it) => a + it.quantity * it.unitCents, 0),
      vat: vatCentsOf(inv),
      printed: printedGrossCents(inv),
      due: dueDateOf(inv),
    }));
    expect(sums).toEqual([
      { file: 'invoice-aldenmoor-INV-2026-0012.pdf', net: 123450, lines: 123450, vat: 23456, printed: 146906, due: '2026-10-17' }, // 234.555 -> 234.56
      { file: 'invoice-copperfinch-INV-2026-0047.pdf', net: 57500, lines: 57500, vat: 11500, printed: 69000, due: '2026-10-21' },
      { file: 'invoice-halvorsen-INV-2026-0103.pdf', net: 1470150, lines: 1470150, vat: 367538, printed: 1837688, due: '2026-11-14' }, // 3675.375 -> 3675.38
      { file: PNG_INVOICE.file, net: 64100, lines: 64100, vat: 12820, printed: 64100 + 12820 + 1000, due: '2026-11-08' },
    ]);
  });

  it('messages.csv: 6 rows, no problems, placeholders filled, E.164 numbers', async () => {
    const res = await importMessageCsv(join(dir, 'messages.csv'), { channelKind: 'messaging' });
    expect(res.problems).toEqual([]);
    expect(res.columns).toEqual(['to', 'text', 'first_name', 'order']);
    expect(res.rows).toHaveLength(6);
    expect(res.rows[0]).toEqual({
      row: 2,
      to: '+442079460123',
      text: 'Hi Olivia, your order A-10231 has shipped and should arrive within 2 working days.',
      subject: null,
      fields: { first_name: 'Olivia', order: 'A-10231' },
    });
    for (const r of res.rows) expect(r.to).toMatch(/^\+\d{8,15}$/);
  });

  it('messages-with-problems.csv: 3 good rows and one problem of each kind', async () => {
    const res = await importMessageCsv(join(dir, 'messages-with-problems.csv'), { channelKind: 'messaging' });
    expect(res.delimiter).toBe(';');
    expect(res.columns[0]).toBe('to'); // BOM stripped
    expect(res.rows.map((r) => r.row)).toEqual([2, 7, 8]);
    expect(res.rows[1]?.text).toBe('Hello Liam; your order A-10305 is delayed by two days.\nWe are sorry for the wait.');
    expect(res.problems.map((p) => p.row)).toEqual([PROBLEM_ROWS.noPlus, PROBLEM_ROWS.missingText, PROBLEM_ROWS.duplicate, PROBLEM_ROWS.unknownPlaceholder]);
    const [noPlus, missingText, duplicate, unknown] = res.problems.map((p) => p.message);
    expect(noPlus).toMatch(/"07700 900123" is not in international format/);
    expect(missingText).toMatch(/the "text" column is empty/);
    expect(duplicate).toMatch(/^Row 5 duplicates row 2/);
    expect(unknown).toMatch(/\{\{voucher_code\}\}, but there is no column "voucher_code"/);
  });

  it('every file stays small: under 200 KB', () => {
    expect(MAX_SAMPLE_BYTES).toBe(200_000);
    for (const [rel, bytes] of buildSamples()) expect(bytes.length, rel).toBeLessThan(MAX_SAMPLE_BYTES);
  });

  it('invoices-november: a credit note and a second Marlowe invoice without its VAT number, read by the sandbox as such', async () => {
    const { items, problems } = await importFiles([join(dir, 'invoices-november')], 'ocr');
    expect(problems).toEqual([]);
    expect(items.map((i) => [i.path.slice(dir.length + 19), i.mime, i.units])).toEqual(NOVEMBER_INVOICES.map((inv) => [inv.file, 'application/pdf', 1]));
    const [credit, marlowe] = NOVEMBER_INVOICES;
    const creditPdf = (await readFile(join(dir, 'invoices-november', credit?.file ?? ''))).toString('latin1');
    expect(creditPdf).toContain('(CREDIT NOTE) Tj');
    expect(creditPdf).toContain('(Credit note number: CN-2026-0009) Tj');
    const note = readInvoice(invoiceFields(invoiceText(credit as (typeof NOVEMBER_INVOICES)[number])));
    expect(note).toMatchObject({ documentType: 'credit-note', invoiceNumber: 'CN-2026-0009', vendor: 'Copperfinch Catering Ltd', gross: 888_000 });
    // The same supplier as October's Marlowe invoice, by name; its VAT number is not printed.
    expect(marlowe?.vendor).toBe(PNG_INVOICE.vendor);
    const marlowePdf = (await readFile(join(dir, 'invoices-november', marlowe?.file ?? ''))).toString('latin1');
    expect(marlowePdf).not.toContain('GB 562 8841 30');
    const read = readInvoice(invoiceFields(invoiceText(marlowe as (typeof NOVEMBER_INVOICES)[number])));
    expect(read).toMatchObject({ vendor: PNG_INVOICE.vendor, vendorVatId: null, invoiceNumber: 'INV-2026-0131', documentType: null });
  });

  it('recordings-personal-data: the script in ICMT is the transcript, and redaction finds its phone number and IBAN', async () => {
    const { items, problems } = await importFiles([join(dir, 'recordings-personal-data')], 'transcribe');
    expect(problems).toEqual([]);
    expect(items).toHaveLength(1);
    const bytes = await readFile(items[0]?.path ?? '');
    expect(wavDurationSeconds(bytes.subarray(0, HEAD_BYTES), bytes.length)).toBeCloseTo(PERSONAL_RECORDING.seconds, 3);
    const icmt = bytes.indexOf('ICMT');
    expect(icmt).toBeGreaterThan(0);
    expect(icmt).toBeLessThan(HEAD_BYTES);
    const script = bytes.subarray(icmt + 8, icmt + 8 + bytes.readUInt32LE(icmt + 4) - 1).toString('latin1');
    expect(script).toBe(transcriptOf(PERSONAL_RECORDING));
    // The sandbox answers that script line by line, each with its speaker (A7): the file's own words.
    expect(transcriptSegments(script, PERSONAL_RECORDING.seconds).map((s) => `${s.speaker ?? ''}: ${s.text}`)).toEqual(script.split('\n'));

    // No country is given: the number is found by the country code said in it.
    const r = redact(script, { kinds: PERSONAL_DATA_KINDS });
    expect(r.counts).toEqual({ cards: 0, iban: 1, phones: 1, emails: 0, 'dates-of-birth': 0 });
    expect(r.text).toContain('Customer: [PHONE]. The IBAN is [IBAN].');
    expect(r.text).not.toContain(PERSONAL_DATA.iban);
    expect(r.text).not.toContain(PERSONAL_DATA.phoneSaid);
    // Names are not looked for (docs/privacy.md): the caller's stays.
    expect(r.text).toContain(PERSONAL_DATA.name);
  });

  it('holds nothing but the generated files', async () => {
    const listed = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    expect(listed).toBe(buildSamples().size);
  });
});
