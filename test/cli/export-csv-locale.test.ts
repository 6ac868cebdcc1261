// `batchdesk export --csv-locale de-DE`: the invoices CSV a German Excel opens as columns (';'
// between fields, amounts with a decimal comma), read back with csv-parse; a tag that is no
// locale, or a format that is not CSV, is refused before anything is written. --spreadsheet de-DE
// adds the window's German headers, words and dates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const INVOICES = join(process.cwd(), 'resources', 'samples', 'invoices');

describe('batchdesk export --csv-locale', () => {
  let sb: SandboxHandle;
  const dir = tempDir('batchdesk-cli-csv-locale-');
  const args = (): string[] => ['--data-dir', join(dir.path, 'data')];
  let id = '';

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
    const created = await runCli(['batch', 'create', 'ocr', join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'), ...args()]);
    expect(created.code, created.stderr).toBe(0);
    id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id, '--api-url', sb.url, ...args()], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it('writes ";" and decimal commas for de-DE, the interchange form without it', async () => {
    const de = join(dir.path, 'rechnungen.csv');
    const plain = join(dir.path, 'invoices.csv');
    expect((await runCli(['export', id, '--format', 'invoices', '--csv-locale', 'de-DE', '--out', de, ...args()])).code).toBe(0);
    expect((await runCli(['export', id, '--format', 'invoices', '--out', plain, ...args()])).code).toBe(0);
    const [german] = parse(readFileSync(de, 'utf8'), { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
    const [interchange] = parse(readFileSync(plain, 'utf8'), { bom: true, columns: true, delimiter: ',' }) as Record<string, string>[];
    expect(interchange?.net).toMatch(/^\d+\.\d\d$/);
    expect(german?.net).toBe(interchange?.net?.replace('.', ','));
    expect(german?.gross).toBe(interchange?.gross?.replace('.', ','));
    expect(german?.invoice_number).toBe(interchange?.invoice_number);
  });

  it('--spreadsheet de-DE: the same numbers, and German headers, words and dates, as the window writes them', async () => {
    const de = join(dir.path, 'rechnungen-de.csv');
    const plain = join(dir.path, 'invoices-plain.csv');
    expect((await runCli(['export', id, '--format', 'invoices', '--spreadsheet', 'de-DE', '--out', de, ...args()])).code).toBe(0);
    expect((await runCli(['export', id, '--format', 'invoices', '--out', plain, ...args()])).code).toBe(0);
    const [german] = parse(readFileSync(de, 'utf8'), { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
    const [interchange] = parse(readFileSync(plain, 'utf8'), { bom: true, columns: true, delimiter: ',' }) as Record<string, string>[];
    expect(interchange).toMatchObject({ issue_date: '2026-10-03', needs_review: 'no', check_net_plus_vat: 'ok' });
    expect(german).toMatchObject({
      Rechnungsnummer: interchange?.invoice_number,
      Rechnungsdatum: '03.10.2026',
      Netto: interchange?.net?.replace('.', ','),
      'Zu prüfen': 'nein',
      'Prüfung: Netto + MwSt. = brutto': 'bestanden',
    });
    const both = await runCli([
      'export',
      id,
      '--format',
      'invoices',
      '--spreadsheet',
      'de-DE',
      '--csv-locale',
      'de-DE',
      '--out',
      join(dir.path, 'x.csv'),
      ...args(),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --csv-locale or --spreadsheet, not both');
  });

  it('refuses a tag that is no locale, and a format that is not CSV, writing nothing', async () => {
    const out = join(dir.path, 'never.csv');
    const bad = await runCli(['export', id, '--format', 'csv', '--csv-locale', 'not a locale', '--out', out, ...args()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--csv-locale "not a locale" is not a locale; give one such as de-DE');
    const json = await runCli(['export', id, '--format', 'json', '--csv-locale', 'de-DE', '--out', out, ...args()]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--csv-locale is for the CSV formats');
    const sheetJson = await runCli(['export', id, '--format', 'json', '--spreadsheet', 'de-DE', '--out', out, ...args()]);
    expect(sheetJson.code).toBe(2);
    expect(sheetJson.stderr).toContain('--spreadsheet is for the CSV formats');
    expect(existsSync(out)).toBe(false);
  });
});
