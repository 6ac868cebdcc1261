// The command line refuses an empty or damaged database with the path and what to do (exit 4),
// and never writes into it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

  it('status and run refuse a database damaged in the middle (its header sound), before writing anything', async () => {
    const t = tempDir('batchdesk-cli-db-');
    dirs.push(t.cleanup);
    const csv = join(t.path, 'm.csv');
    writeFileSync(
      csv,
      `to,text\n${Array.from({ length: 2000 }, (_, i) => `+44207946${String(i % 1000).padStart(4, '0')},Hello number ${i} - your parcel is on its way`).join('\n')}\n`,
    );
    const data = ['--data-dir', t.path];
    expect((await runCli(['batch', 'create', 'channel', csv, ...data])).code).toBe(0);
    const db = join(t.path, 'batchdesk.sqlite');
    // Pages from 60% to 80% of the file overwritten (the jobs' rows and indexes), page 1 untouched.
    const bytes = readFileSync(db);
    const size = bytes.readUInt16BE(16);
    const pages = bytes.length / size;
    for (let p = Math.floor(pages * 0.6); p < Math.floor(pages * 0.8); p++) bytes.fill(0xa5, p * size + 8, (p + 1) * size - 8);
    writeFileSync(db, bytes);

    for (const args of [['status'], ['run', '--api-url', 'http://127.0.0.1:9']]) {
      const r = await runCli([...args, ...data], { BATCHDESK_CHANNEL_KEY: 'ck_test_0123456789abcdef' });
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toContain(`${db} is damaged`);
      expect(r.stderr).toMatch(/Restore it from a backup, or move it aside/);
      expect(r.stderr).not.toMatch(/SqliteError|\n\s+at /);
      expect(r.stdout).toBe('');
      // Not a byte written into it, nor a log of writes waiting beside it.
      expect(readFileSync(db).equals(bytes)).toBe(true);
      expect(existsSync(`${db}-wal`) ? readFileSync(`${db}-wal`).length : 0).toBe(0);
    }
  });

  it('damage the check stamp let through (size and time kept): run names the file, and the next command checks it all', async () => {
    const t = tempDir('batchdesk-cli-db-');
    dirs.push(t.cleanup);
    const csv = join(t.path, 'm.csv');
    writeFileSync(
      csv,
      `to,text\n${Array.from({ length: 2000 }, (_, i) => `+44207946${String(i % 1000).padStart(4, '0')},Hello number ${i} - your parcel is on its way`).join('\n')}\n`,
    );
    const data = ['--data-dir', t.path];
    expect((await runCli(['batch', 'create', 'channel', csv, ...data])).code).toBe(0);
    // A sound check remembered beside the file.
    expect((await runCli(['status', ...data])).code).toBe(0);
    const db = join(t.path, 'batchdesk.sqlite');
    const stamp = `${db}-checked`;
    expect(existsSync(stamp)).toBe(true);
    // Its time kept to the nanosecond (`touch -r` from a copy made with `cp -p`).
    const ref = join(t.path, 'ref');
    execFileSync('cp', ['-p', db, ref]);
    const bytes = readFileSync(db);
    const size = bytes.readUInt16BE(16);
    const pages = bytes.length / size;
    for (let p = Math.floor(pages * 0.6); p < Math.floor(pages * 0.8); p++) bytes.fill(0xa5, p * size + 8, (p + 1) * size - 8);
    writeFileSync(db, bytes);
    execFileSync('touch', ['-r', ref, db]);
    expect(statSync(db).mtimeMs).toBe(statSync(ref).mtimeMs);

    const run = await runCli(['run', '--api-url', 'http://127.0.0.1:9', ...data], { BATCHDESK_CHANNEL_KEY: 'ck_test_0123456789abcdef' });
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain(`${db} is damaged`);
    expect(run.stderr).toMatch(/Restore it from a backup, or move it aside/);
    expect(run.stderr).not.toMatch(/SqliteError|\n\s+at /);
    // The stamp is gone: the next command reads every page and refuses the file.
    expect(existsSync(stamp), run.stderr).toBe(false);
    const status = await runCli(['status', ...data]);
    expect(status.code, status.stderr).toBe(4);
    expect(status.stderr).toContain(`${db} is damaged (SQLite's check found:`);
  });

  it('batch create names a data folder it cannot make or open for writing, and says what to do (exit 4)', async () => {
    const t = tempDir('batchdesk-cli-db-');
    dirs.push(t.cleanup);
    const csv = join(t.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460001,hello\n');
    // Under a file: the folder cannot be made (a read-only disk fails here too).
    const underFile = join(csv, 'data');
    const made = await runCli(['batch', 'create', 'channel', csv, '--data-dir', underFile]);
    expect(made.code).toBe(4);
    expect(made.stderr).toBe(
      `batchdesk: The data folder ${underFile} cannot be created (ENOTDIR). Choose a folder you can write to (--data-dir or BATCHDESK_DATA_DIR), or make the folder above it writable.\n`,
    );
    // A data folder whose database SQLite cannot open for writing (its write-ahead log cannot be made).
    const data = join(t.path, 'data');
    expect((await runCli(['batch', 'create', 'channel', csv, '--data-dir', data])).code).toBe(0);
    mkdirSync(join(data, 'batchdesk.sqlite-wal'));
    const again = await runCli(['batch', 'create', 'channel', csv, '--allow-resend', '--data-dir', data]);
    expect(again.code).toBe(4);
    expect(again.stderr).toBe(
      `batchdesk: ${data} cannot be written (SQLITE_CANTOPEN): Batchdesk stopped opening the data folder. Nothing was changed. Make the folder writable (or choose another --data-dir), then try again.\n`,
    );
  });
});
