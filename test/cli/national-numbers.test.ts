// A German shop's customer list writes numbers as Germans do ("0151 2345 0013"). Without a country
// named for the batch those rows are refused (a guess from the locale sends a message abroad);
// with `--national-numbers DE` each is read as a German number and stored as +49..., and a number
// that is not valid in Germany is still refused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batch create --national-numbers', () => {
  const dir = tempDir('batchdesk-cli-national-');
  const csv = join(dir.path, 'kunden.csv');
  beforeAll(() => {
    assertBuilt();
    writeFileSync(
      csv,
      'to,text,order\n0151 23450013,Hallo,A-1\n+49 151 23450014,Hallo,A-2\n030 1234567,Hallo,A-3\n0151 2,Hallo,A-4\n0044 20 7946 0018,Hallo,A-5\n',
    );
  });
  afterAll(() => dir.cleanup());

  /** The recipients of the batch's jobs, as stored to be sent. */
  function recipients(data: string, id: string): string[] {
    const db = new Database(join(data, 'batchdesk.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT payload_json AS payload FROM jobs WHERE batch_id = ? ORDER BY seq').all(id) as { payload: string }[];
      return rows.map((r) => (JSON.parse(r.payload) as { to: string }).to);
    } finally {
      db.close();
    }
  }

  it('refuses national numbers when no country is named', async () => {
    const data = join(dir.path, 'none');
    const created = await runCli(['batch', 'create', 'channel', csv, '--data-dir', data]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout + created.stderr).toContain('"0151 23450013" is not in international format');
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(recipients(data, id)).toEqual(['+4915123450014']);
  });

  it('reads them as the named country, and still refuses a number invalid there', async () => {
    const data = join(dir.path, 'de');
    const created = await runCli(['batch', 'create', 'channel', csv, '--national-numbers', 'de', '--data-dir', data]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(recipients(data, id)).toEqual(['+4915123450013', '+4915123450014', '+49301234567']);
    const said = created.stdout + created.stderr;
    expect(said).toContain('"0151 2" is not a valid number');
    // 00 is an international prefix, never a national number: the row says to write + instead.
    expect(said).toContain('replace the leading 00 with + (+44 20 7946 0018)');
  });

  it('refuses a code that is no country, and a batch that sends no messages', async () => {
    const bad = await runCli(['batch', 'create', 'channel', csv, '--national-numbers', 'XX', '--data-dir', join(dir.path, 'bad')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('two-letter code, such as DE, AT or CH');
    const wrong = await runCli(['batch', 'create', 'text', csv, '--task', 'summary', '--national-numbers', 'DE', '--data-dir', join(dir.path, 'bad')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('reading national numbers is for message batches (channel)');
  });
});
