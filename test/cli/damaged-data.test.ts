// The command line refuses an empty or damaged database with the path and what to do (exit 4),
// and never writes into it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const c of dirs.splice(0)) c();
});
beforeAll(() => assertBuilt());

describe('a damaged data folder on the command line', () => {
  it.each([
    ['status', []],
    ['batch', ['create', 'channel']],
    ['run', []],
  ])('%s refuses a 0-byte database with exit 4 and leaves it as it is', async (cmd, rest) => {
    const t = tempDir('batchdesk-cli-db-');
    dirs.push(t.cleanup);
    const db = join(t.path, 'batchdesk.sqlite');
    writeFileSync(db, '');
    const csv = join(t.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460001,hello\n');
    const args = [cmd, ...rest, ...(cmd === 'batch' ? [csv] : []), '--data-dir', t.path];
    const r = await runCli(args);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(db);
    expect(r.stderr).toMatch(/empty \(0 bytes\).*Restore it from a backup, or move it aside/s);
    expect(readFileSync(db).length).toBe(0);
  });
});
