// A data folder named on the command line (or by BATCHDESK_DATA_DIR) that holds no Batchdesk data
// is a mistyped path: the commands that only read refuse it, say so, and create nothing; the
// first command that writes makes it, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('a named data folder without Batchdesk data', () => {
  const dir = tempDir('batchdesk-named-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('is refused by the commands that only read, and not created', async () => {
    const typo = join(dir.path, 'batchdsk-data');
    for (const args of [
      ['status'],
      ['status', '--json'],
      ['optout', 'list'],
      ['search', 'refund'],
      ['report', '--by', 'client'],
      ['export', 'b1', '--format', 'csv', '--out', join(dir.path, 'x.csv')],
      ['keys', 'list'],
      ['config', 'list'],
      ['watch', 'list'],
      ['rates', 'list'],
    ]) {
      const r = await runCli([...args, '--data-dir', typo]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(
        `There is no Batchdesk data in ${typo} (no batchdesk.sqlite; nothing was created there). Check the folder given with --data-dir or BATCHDESK_DATA_DIR`,
      );
      expect(r.stdout, args.join(' ')).toBe('');
      // Nothing to copy into a shell: a suggested command would carry the mistyped folder.
      expect(r.stderr, args.join(' ')).not.toContain('`batchdesk');
      expect(existsSync(typo), args.join(' ')).toBe(false);
    }
    // Named by the environment: the same.
    const env = await runCli(['status'], { BATCHDESK_DATA_DIR: typo });
    expect(env.code).toBe(2);
    expect(existsSync(typo)).toBe(false);
  });

  it('is made by the first command that writes to it, and then read', async () => {
    const fresh = join(dir.path, 'new data');
    const csv = join(dir.path, 'one.csv');
    writeFileSync(csv, 'to,text\n+442079460000,Hi\n');
    const created = await runCli(['batch', 'create', 'channel', csv, '--data-dir', fresh]);
    expect(created.code, created.stderr).toBe(0);
    const status = await runCli(['status', '--data-dir', fresh]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/1 item\b/);
    // A folder with data but no batches (an opt-out added first) reads as empty, not as a mistake.
    const optedFirst = join(dir.path, 'opted first');
    expect((await runCli(['optout', 'add', '+442079460001', '--data-dir', optedFirst])).code).toBe(0);
    const empty = await runCli(['status', '--data-dir', optedFirst]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain('No batches yet');
  });
});
