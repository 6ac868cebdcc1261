// The desktop bundle on a runtime of another ABI than the suite's own: Node 22 (ABI 127) stands in
// for Electron's runtime, whose binary cannot be downloaded here. The SQLite driver is built for
// it from source, offline, by `npm run native -- --nodedir DIR`, and the built main bundle started
// under it with the Electron stand-in serves its contract calls on that driver. A runtime whose
// driver does not load is told so in one sentence with the command.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secondNodeAvailable, secondNodeDir } from '../helpers/second-node';

const root = process.cwd();
const bundle = join(root, 'out', 'main', 'index.js');
interface InfoCall {
  ok: boolean;
  result?: { transport: string; runtime: string; sqliteAddon: string | null };
  error?: { message: string };
}

describe.skipIf(!secondNodeAvailable)('the desktop bundle on a second runtime (Node 22 for Electron)', () => {
  const work = mkdtempSync(join(tmpdir(), 'batchdesk-second-runtime-'));
  const addon = join(work, 'native', 'better_sqlite3.node');
  let dir = '';
  let built: { status: number | null; stdout: string; stderr: string };

  beforeAll(() => {
    dir = secondNodeDir();
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'native.mjs'), '--nodedir', dir, '--out', addon], { encoding: 'utf8', timeout: 1_500_000 });
    built = { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }, 1_600_000);

  it('npm run native builds the driver for that runtime from its headers, offline', () => {
    expect(built.stderr).not.toMatch(/failed|does not load/);
    expect(built.status).toBe(0);
    expect(built.stdout).toMatch(/for Node v22\.\d+\.\d+ \(ABI 127, N-API \d+\)/);
    expect(built.stdout).toContain(addon);
  });

  it('serves its contract calls there, on that build, through the stand-in', () => {
    const report = join(work, 'report.json');
    const r = spawnSync(join(dir, 'bin', 'node'), ['--import', join(root, 'test', 'electron', 'register-stand-in.mjs'), bundle], {
      env: { ...process.env, STAND_IN_REPORT: report, BATCHDESK_SQLITE_ADDON: addon },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const calls = (JSON.parse(readFileSync(report, 'utf8')) as { calls: Record<string, InfoCall> }).calls;
    expect(calls.trusted?.ok).toBe(true);
    expect(calls.trusted?.result?.runtime).toMatch(/^Node 22\.\d+\.\d+ \(ABI 127, /);
    expect(calls.trusted?.result?.sqliteAddon).toBe(addon);
    // The suite's own runtime is another ABI: the same bundle and driver source serve both.
    expect(process.versions.modules).not.toBe('127');
  });

  it('a runtime whose driver does not load says so in one sentence, with the command', () => {
    // A binary for another platform is what a runtime without its build meets.
    const foreign = join(root, 'node_modules', 'better-sqlite3', 'prebuilds', 'linux-arm64.node');
    const csv = join(work, 'messages.csv');
    writeFileSync(csv, 'to,text\n+442079460001,Hello\n');
    const r = spawnSync(process.execPath, [join(root, 'bin', 'batchdesk.js'), 'batch', 'create', 'channel', csv, '--data-dir', join(work, 'data')], {
      env: { ...process.env, BATCHDESK_SQLITE_ADDON: foreign },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(4);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^batchdesk: Batchdesk's SQLite driver does not load in Node \d+\.\d+\.\d+ \(ABI \d+, N-API \d+, linux-x64\): .+\. Build the driver for this runtime with `npm run native -- --nodedir DIR`/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
