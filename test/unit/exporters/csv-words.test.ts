// The words and formats of an export for a spreadsheet: every column a capability writes has a
// word in each language (a new column without one fails here), German names are distinct, and a
// record comes out with German headers, statuses, yes/no, check outcomes, row references, days
// and moments in the user's zone; the English form keeps the plain export's names and words.
import { describe, expect, it } from 'vitest';
import { BATCH_CAPABILITIES } from '../../../src/shared/domain';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import { invoiceColumnNames, LINE_ITEM_COLUMNS } from '../../../src/main/engine/exporters/export-records';
import { EXPORT_COLUMNS, EXPORT_WORDS, exportLanguageOf, GERMAN_EXPORT_WORDS, isExportColumn } from '../../../src/shared/csv-words';
import { sheetDay, sheetMoment, sheetRecord, spreadsheetForm } from '../../../src/main/engine/exporters/sheet-form';

/** Every column Batchdesk writes in a CSV export, from the capabilities themselves. */
function writtenColumns(): Set<string> {
  const out = new Set<string>(['item', 'source', 'state', 'units', 'cost_eur', 'attempts', 'error', 'error_kind', 'http_status', 'idempotency_key']);
  for (const cap of BATCH_CAPABILITIES) {
    const mod = capabilityFor(cap);
    for (const c of Object.keys(mod.descriptor.columns(null))) out.add(c);
    for (const c of Object.keys(mod.sourceColumns({}))) out.add(c);
  }
  for (const c of [...invoiceColumnNames(), ...LINE_ITEM_COLUMNS, 'sandbox', 'worker', 'needs_review', 'failed_checks']) out.add(c);
  return out;
}

describe('export words', () => {
  it('has a word in every language for every column a capability writes', () => {
    const missing = [...writtenColumns()].filter((c) => !isExportColumn(c));
    expect(missing).toEqual([]);
    for (const words of Object.values(EXPORT_WORDS)) expect(Object.keys(words.columns).sort()).toEqual([...EXPORT_COLUMNS].sort());
  });

  it('gives distinct German names (a header never appears twice) and the English names of the plain export', () => {
    const german = Object.values(GERMAN_EXPORT_WORDS.columns).map((n) => n.toLowerCase());
    expect(new Set(german).size).toBe(german.length);
    for (const c of EXPORT_COLUMNS) expect(EXPORT_WORDS.en.columns[c]).toBe(c);
  });

  it('picks German for every German locale, English otherwise', () => {
    expect(exportLanguageOf('de-DE')).toBe('de');
    expect(exportLanguageOf('de-AT')).toBe('de');
    expect(exportLanguageOf('de')).toBe('de');
    expect(exportLanguageOf('fr-FR')).toBe('en');
    expect(exportLanguageOf('en-GB')).toBe('en');
  });
});

describe('days and moments for a spreadsheet', () => {
  const berlin = spreadsheetForm('de-DE', 'Europe/Berlin');
  it('writes a day as the locale does, without moving it to another zone', () => {
    expect(sheetDay('2026-10-09', berlin)).toBe('09.10.2026');
    expect(sheetDay('2026-10-09', spreadsheetForm('en-GB', 'Pacific/Auckland'))).toBe('09/10/2026');
    expect(sheetDay('not a day', berlin)).toBe('not a day');
  });
  it("writes a moment in the user's zone, to the minute, day and time joined by a space", () => {
    const at = Date.parse('2026-11-30T04:47:36.135Z');
    expect(sheetMoment(at, berlin)).toBe('30.11.2026 05:47');
    // Summer time: two hours ahead of UTC.
    expect(sheetMoment(Date.parse('2026-07-01T22:30:00Z'), berlin)).toBe('02.07.2026 00:30');
    expect(sheetMoment(at, spreadsheetForm('de-DE', 'America/New_York'))).toBe('29.11.2026 23:47');
  });
});

describe('a record for a spreadsheet', () => {
  const flat = {
    item: 1,
    source: 'kunden-november.csv row 2',
    state: 'succeeded',
    cost_eur: '0.0050',
    to: "'+4915123450000",
    status: 'accepted',
    sandbox: 'no',
    needs_review: 'yes',
    failed_checks: 'net_plus_vat; duplicate',
    review_decision: 'accepted',
    reviewed_at: '2026-11-30T04:47:36.135Z',
    issue_date: '2026-10-09',
    vat_rates: '5.5; 19',
    corrected_fields: 'vendor; gross',
    check_net_plus_vat: 'failed',
    check_vat_rate: 'not checked',
    check_duplicate: 'ok',
    order: 'B-20000',
  };

  it('in German: the headers, the words and the dates', () => {
    const de = sheetRecord(flat, spreadsheetForm('de-DE', 'Europe/Berlin'));
    expect(de).toEqual({
      'Nr.': 1,
      Quelle: 'kunden-november.csv Zeile 2',
      Auftragsstatus: 'Erfolgreich',
      'Kosten (EUR)': '0.0050',
      Empfänger: "'+4915123450000",
      Nachrichtenstatus: 'angenommen',
      Sandbox: 'nein',
      'Zu prüfen': 'ja',
      'Nicht bestandene Prüfungen': 'Netto + MwSt. ist nicht brutto; Schon einmal gesehen',
      Entscheidung: 'angenommen',
      'Geprüft am': '30.11.2026 05:47',
      Rechnungsdatum: '09.10.2026',
      'MwSt.-Sätze (%)': '5,5; 19',
      'Korrigierte Felder': 'Lieferant; Brutto',
      'Prüfung: Netto + MwSt. = brutto': 'nicht bestanden',
      'Prüfung: MwSt.-Satz gibt es im Land': 'nicht geprüft',
      'Prüfung: Noch nicht gesehen (Lieferant + Nummer)': 'bestanden',
      // Not Batchdesk's column: as it came.
      order: 'B-20000',
    });
  });

  it('a TXT line is a "Zeile" too; a file name that only looks like a row reference stays', () => {
    const form = spreadsheetForm('de-DE', 'Europe/Berlin');
    expect(sheetRecord({ source: 'prompts.txt line 4' }, form)).toEqual({ Quelle: 'prompts.txt Zeile 4' });
    expect(sheetRecord({ source: 'call row 2.wav' }, form)).toEqual({ Quelle: 'call row 2.wav' });
  });

  it('in English for another locale: the plain names and words, the dates as that spreadsheet reads them', () => {
    const en = sheetRecord(flat, spreadsheetForm('en-GB', 'Europe/London'));
    expect(Object.keys(en)).toEqual(Object.keys(flat));
    expect(en).toMatchObject({ source: 'kunden-november.csv row 2', state: 'succeeded', sandbox: 'no', check_duplicate: 'ok', vat_rates: '5.5; 19' });
    expect(en.reviewed_at).toBe('30/11/2026 04:47');
    expect(en.issue_date).toBe('09/10/2026');
  });
});
