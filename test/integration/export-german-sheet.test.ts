// "For a spreadsheet in German" (issue 42): a message batch and an invoice batch, sent and read on
// the sandbox, exported for de-DE in Europe/Berlin and read back with csv-parse splitting on ';'.
// Batchdesk's headers and words are German, days and the review's moment as German Excel reads
// them, the source CSV's own columns untouched; compared cell by cell with the plain export of the
// same batch, which stays English. JSON asked for the same stays machine-readable.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { spreadsheetCsv } from '../../src/shared/csv-dialect';
import { GERMAN_EXPORT_WORDS as DE } from '../../src/shared/csv-words';
import { sheetMoment, spreadsheetForm } from '../../src/main/engine/exporters/sheet-form';
import { createAndRun, INVOICES, startHarness, ukDramaNumber, writeText } from './harness';

type Row = Record<string, string>;

async function read(path: string, delimiter: ',' | ';'): Promise<{ raw: string; header: string[]; rows: Row[] }> {
  const raw = await readFile(path, 'utf8');
  const [header = []] = parse(raw, { bom: true, delimiter, to: 1 }) as string[][];
  return { raw, header, rows: parse(raw, { bom: true, columns: true, delimiter }) as Row[] };
}

const GERMAN = { csv: spreadsheetCsv('de-DE'), sheet: spreadsheetForm('de-DE', 'Europe/Berlin') };

describe('an export for a spreadsheet in German', () => {
  it("a message batch: German headers, status words and row references; the CSV's own columns as they were", async () => {
    const h = await startHarness();
    const csv = await writeText(
      h,
      'kunden-november.csv',
      [
        'to,text,first_name,order,state',
        `${ukDramaNumber(1)},"Hallo {{first_name}}, Ihre Bestellung {{order}} ist unterwegs.",Anna,B-20000,Bayern`,
        `${ukDramaNumber(2)},"Hallo {{first_name}}, Ihre Bestellung {{order}} ist unterwegs.",Lukas,=1+1,12.50`,
      ].join('\r\n'),
    );
    const run = await createAndRun(h, { capability: 'channel', paths: [csv] });
    expect(run.summary.counts).toMatchObject({ succeeded: 2 });

    const plainPath = join(h.dir, 'plain.csv');
    const dePath = join(h.dir, 'de.csv');
    await h.engine.exportBatch(run.id, 'csv', plainPath);
    await h.engine.exportBatch(run.id, 'csv', dePath, false, GERMAN);
    const plain = await read(plainPath, ',');
    const de = await read(dePath, ';');

    expect(de.raw.charCodeAt(0)).toBe(0xfeff);
    expect(plain.header.slice(0, 3)).toEqual(['item', 'source', 'state']);
    expect(de.header.slice(0, 3)).toEqual(['Nr.', 'Quelle', 'Auftragsstatus']);
    // Batchdesk's columns renamed, the source's own kept: its `state` no longer clashes with a result column.
    expect(de.header).toEqual(expect.arrayContaining(['Empfänger', 'Text', 'Nachrichten-ID', 'Nachrichtenstatus', 'Sandbox', 'Kosten (EUR)']));
    expect(de.header.slice(-3)).toEqual(['first_name', 'order', 'state']);
    expect(plain.header.slice(-3)).toEqual(['first_name', 'order', 'source_state']);

    expect(de.rows.map((r) => r.Quelle)).toEqual(['kunden-november.csv Zeile 2', 'kunden-november.csv Zeile 3']);
    expect(plain.rows.map((r) => r.source)).toEqual(['kunden-november.csv row 2', 'kunden-november.csv row 3']);
    de.rows.forEach((row, i) => {
      const was = plain.rows[i] ?? {};
      expect(row.Auftragsstatus).toBe('Erfolgreich');
      expect(was.status).toBe('accepted');
      expect(row.Nachrichtenstatus).toBe('angenommen');
      expect(row.Sandbox).toBe(was.sandbox === 'yes' ? 'ja' : 'nein');
      expect(row['Kosten (EUR)']).toBe(was.cost_eur?.replace('.', ','));
      // The recipient is still text a spreadsheet will not compute, the message as sent.
      expect(row.Empfänger).toBe(was.to);
      expect(row.Text).toBe(was.text);
      expect([row.first_name, row.order, row.state]).toEqual([was.first_name, was.order, was.source_state]);
    });
    // Formulas stay neutralised; a point in the user's own cell stays a point.
    expect(de.rows[1]?.order).toBe("'=1+1");
    expect(de.rows[1]?.state).toBe('12.50');

    // JSON asked for with the same options stays machine-readable: English keys and words.
    const jsonPath = join(h.dir, 'de.json');
    await h.engine.exportBatch(run.id, 'json', jsonPath, false, GERMAN);
    const json = JSON.parse(await readFile(jsonPath, 'utf8')) as Record<string, unknown>[];
    expect(json[0]).toMatchObject({ source: 'kunden-november.csv row 2', state: 'succeeded', status: 'accepted', order: 'B-20000', source_state: 'Bayern' });
  });

  it('an invoice batch: German headers, check outcomes, dates as German Excel reads them, the review in Berlin time', async () => {
    const h = await startHarness();
    const run = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
    const queue = await h.engine.reviews.queue(run.id);
    const marlowe = queue[0]?.jobId ?? 0;
    const review = await h.engine.reviews.save(marlowe, { edits: [{ field: 'gross', value: '769.20' }], decision: 'accepted', note: 'geklärt', by: 'ann' });
    expect(review.decidedAt).toBeGreaterThan(0);

    const dePath = join(h.dir, 'rechnungen.csv');
    const plainPath = join(h.dir, 'invoices.csv');
    await h.engine.exportBatch(run.id, 'invoices', dePath, false, GERMAN);
    await h.engine.exportBatch(run.id, 'invoices', plainPath);
    const de = await read(dePath, ';');
    const plain = await read(plainPath, ',');
    expect(de.raw.charCodeAt(0)).toBe(0xfeff);
    // Every header German (the same columns, in the same order, as the plain export's).
    expect(de.header).toEqual(plain.header.map((c) => DE.columns[c as keyof typeof DE.columns]));
    expect(de.header).toEqual(
      expect.arrayContaining(['Lieferant', 'Rechnungsnummer', 'Rechnungsdatum', 'Fällig am', 'Netto', 'Brutto', 'Zu prüfen', 'Geprüft am', 'Prüfhinweise']),
    );

    const aldenmoor = de.rows.find((r) => r.Rechnungsnummer === 'INV-2026-0012');
    expect(aldenmoor).toMatchObject({
      Rechnungsdatum: '03.10.2026',
      'Fällig am': '17.10.2026',
      Netto: '1234,50',
      Brutto: '1469,06',
      'MwSt.-Sätze (%)': '19',
      Sandbox: expect.stringMatching(/^(ja|nein)$/),
      'Zu prüfen': 'nein',
      'Prüfung: Netto + MwSt. = brutto': 'bestanden',
      'Prüfung: Noch nicht gesehen (Lieferant + Nummer)': 'bestanden',
    });
    expect(plain.rows.find((r) => r.invoice_number === 'INV-2026-0012')).toMatchObject({ issue_date: '2026-10-03', check_net_plus_vat: 'ok' });

    const reviewed = de.rows.find((r) => r.Rechnungsnummer === 'INV-2026-0088');
    expect(reviewed).toMatchObject({
      Entscheidung: 'angenommen',
      'Geprüft von': 'ann',
      Prüfnotiz: 'geklärt',
      'Korrigierte Felder': 'Brutto',
      'Werte wie gelesen': 'Brutto: 779,20',
      Brutto: '769,20',
    });
    expect(reviewed?.['Geprüft am']).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(reviewed?.['Geprüft am']).toBe(sheetMoment(review.decidedAt ?? 0, GERMAN.sheet));
    expect(plain.rows.find((r) => r.invoice_number === 'INV-2026-0088')?.reviewed_at).toBe(new Date(review.decidedAt ?? 0).toISOString());

    // The line items: German headers, amounts with a decimal comma.
    const linesPath = join(h.dir, 'positionen.csv');
    await h.engine.exportBatch(run.id, 'line-items', linesPath, false, GERMAN);
    const lines = await read(linesPath, ';');
    expect(lines.header).toEqual([
      'Nr.',
      'Quelle',
      'Sandbox',
      'Lieferant',
      'Rechnungsnummer',
      'Position',
      'Beschreibung',
      'Menge',
      'Einzelpreis',
      'Betrag',
      'Währung',
    ]);
    expect(lines.rows.every((r) => /^-?\d+,\d+$/.test(r.Betrag ?? ''))).toBe(true);
  });
});
