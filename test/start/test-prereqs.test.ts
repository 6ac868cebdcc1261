// scripts/test-prereqs.sh (run before `npm test`) accepts exactly the Node versions package.json's
// engines admits, and says in words what is missing. Run with --check: it never installs here.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = process.cwd();
const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** Runs the script with a stand-in `node` first on PATH that reports `version`. */
function checkWith(version: string): { status: number | null; stderr: string } {
  const bin = mkdtempSync(join(tmpdir(), 'prereqs-node-'));
  try {
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v${version}; else echo ${version}; fi\n`, { mode: 0o755 });
    const r = spawnSync('bash', [join(ROOT, 'scripts', 'test-prereqs.sh'), '--check'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, BATCHDESK_SKIP_PREREQS: '' },
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

describe.runIf(process.platform === 'linux')('scripts/test-prereqs.sh', () => {
  it.each(['20.20.2', '22.22.1', '22.22.2', '22.23.5', '23.9.0', '24.14.9', '24.15.0', '24.22.3', '25.1.0'])('Node %s: as package.json engines says', (v) => {
    const r = checkWith(v);
    if (semver.satisfies(v, engines)) expect(r.stderr).not.toContain('Node 24.15+');
    else {
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`npm test cannot run yet: it needs`);
      expect(r.stderr).toContain(`Node 24.15+ or 22.22.2+ (this is v${v}`);
    }
  });
});
