// `batchdesk batch skipped ID`: the rows a batch's import left out, long after the import (its
// source file gone), as the CSV's own columns and a problem column in English.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk batch skipped', () => {
  const dir = tempDir('batchdesk-cli-skipped-');
  const args = ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('gives back the refused rows of a batch as a CSV, after the source file is gone', async () => {
    const csv = join(dir.path, 'notice.csv');
    writeFileSync(csv, 'to,text,order\n+442079460031,Hi,A-1\n+442079460031,Hi,A-2\n,Hi,A-3\n+442079460033,Hi,A-4\n');
    const created = await runCli(['batch', 'create', 'channel', csv, ...args]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    rmSync(csv);

    const out = join(dir.path, 'notice-rejected.csv');
    const written = await runCli(['batch', 'skipped', id, '--out', out, ...args]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(`Wrote 2 row(s) left out of ${id} to ${out}`);
    expect(readFileSync(out, 'utf8')).toBe(
      [
        'to,text,order,problem',
        '\'+442079460031,Hi,A-2,"Row 3 duplicates row 2 (same recipient +442079460031 and same text); skipped, so the message is sent once. Delete the row, or change its text if a second message is intended."',
        ',Hi,A-3,"the ""to"" column is empty; add the recipient\'s phone number (+<country code><number>) or delete the row."',
        '',
      ].join('\r\n'),
    );
    // The same CSV on standard output (its lines ended as a terminal's text).
    const printed = await runCli(['batch', 'skipped', id, ...args]);
    expect(printed.stdout).toBe(readFileSync(out, 'utf8').replaceAll('\r\n', '\n'));
  });
});
