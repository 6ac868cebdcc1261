// Electronegativity (Doyensec's Electron security scanner) over the sources: every finding must be
// explained in docs/security/electronegativity-allowlist.json, and every entry there must still
// match a finding, so the list never hides a new problem nor keeps a stale excuse.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCsv } from '../helpers/csv';
import { secondNodeBinary } from '../helpers/second-node';

const ROOT = process.cwd();
const ALLOWLIST = join(ROOT, 'docs', 'security', 'electronegativity-allowlist.json');

interface Finding {
  check: string;
  severity: string;
  confidence: string;
  /** Relative to src/ (the scanner's -r). */
  file: string;
  line: number | null;
  sample: string;
  description: string;
}

interface Entry {
  check: string;
  file: string;
  sample?: string;
  line?: number;
  why: string;
}

/** The scanner's own entry point, from its package.json "bin". */
function scannerBin(): string {
  const require = createRequire(join(ROOT, 'package.json'));
  const pkgJson = require.resolve('@doyensec/electronegativity/package.json');
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.electronegativity;
  if (!bin) throw new Error('@doyensec/electronegativity declares no "electronegativity" bin');
  return join(dirname(pkgJson), bin);
}

// This check downloads Electron's release list from the internet, which is unreachable here.
const OFFLINE_EXCLUDED = 'AvailableSecurityFixesGlobalCheck';

// Orders the scanner's two racing writes of its CSV (see the file's comment).
const ORDERED_WRITES = join(ROOT, 'test', 'security', 'electronegativity-ordered-writes.cjs');

function scan(electronVersion: string): Finding[] {
  const dir = mkdtempSync(join(tmpdir(), 'batchdesk-electronegativity-'));
  const out = join(dir, 'findings.csv');
  try {
    // The scanner (last released in 2022) crashes on Node 24 inside its HTTP client's retry, when
    // it fails to fetch translations; it runs as before on Node 22, the suite's second runtime.
    const r = spawnSync(
      secondNodeBinary(),
      ['--require', ORDERED_WRITES, scannerBin(), '-i', join(ROOT, 'src'), '-e', electronVersion, '-x', OFFLINE_EXCLUDED, '-r', '-o', out],
      {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    if (r.status !== 0 || !existsSync(out)) throw new Error(`electronegativity failed (status ${r.status}):\n${r.stderr}\n${r.stdout.slice(-2000)}`);
    const [header, ...rows] = parseCsv(readFileSync(out, 'utf8'));
    const garbled = rows.find((r) => !/^[A-Z_]+_CHECK$/.test(r[0] ?? ''));
    if ((header ?? [])[0] !== 'issue' || garbled)
      throw new Error(`the scanner's CSV is not a report: header ${JSON.stringify(header)}, row ${JSON.stringify(garbled)}`);
    const cols = (header ?? []).map((h) => h.trim());
    const col = (name: string): number => {
      const i = cols.indexOf(name);
      if (i < 0) throw new Error(`the scanner's CSV has no "${name}" column (columns: ${cols.join(', ')})`);
      return i;
    };
    const [issue, severity, confidence, filename, location, sample, description] = [
      'issue',
      'severity',
      'confidence',
      'filename',
      'location',
      'sample',
      'description',
    ].map(col) as number[];
    return rows.map((r) => {
      const get = (i: number | undefined): string => (i === undefined ? '' : (r[i] ?? ''));
      const line = /^(\d+):/.exec(get(location))?.[1];
      return {
        check: get(issue),
        severity: get(severity),
        confidence: get(confidence),
        file: get(filename)
          .replace(/\\/g, '/')
          .replace(/^\.?\//, ''),
        line: line === undefined ? null : Number(line),
        sample: get(sample),
        description: get(description),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const matches = (e: Entry, f: Finding): boolean =>
  e.check === f.check && e.file === f.file && (e.sample === undefined || f.sample.includes(e.sample)) && (e.line === undefined || e.line === f.line);

const describeFinding = (f: Finding): string =>
  `${f.check} ${f.file}${f.line !== null ? `:${f.line}` : ''} [${f.severity}/${f.confidence}] ${f.description} :: ${f.sample.slice(0, 120)}`;

describe('electronegativity', () => {
  const allow = JSON.parse(readFileSync(ALLOWLIST, 'utf8')) as { electronVersion: string; entries: Entry[] };

  it('the allow-list is well formed: every entry names a check and a file and says why in a sentence or two', () => {
    expect(allow.electronVersion).toBe('45.5.0');
    expect(allow.entries.length).toBeGreaterThan(0);
    for (const e of allow.entries) {
      expect(e.check, JSON.stringify(e)).toMatch(/^[A-Z_]+_(JS|HTML|JSON|GLOBAL)_CHECK$/);
      expect(existsSync(join(ROOT, 'src', e.file)), `${e.file} exists under src/`).toBe(true);
      expect(e.why.trim().length, `${e.check} ${e.file}: explain why`).toBeGreaterThan(40);
      expect(e.why.length, `${e.check} ${e.file}: keep it to one or two sentences`).toBeLessThan(450);
    }
  });

  it('every finding over src/ is explained in the allow-list, and every entry still matches a finding', () => {
    const findings = scan(allow.electronVersion);
    const unexplained = findings.filter((f) => !allow.entries.some((e) => matches(e, f)));
    const stale = allow.entries.filter((e) => !findings.some((f) => matches(e, f)));
    expect.soft(unexplained.map(describeFinding), 'findings not explained in docs/security/electronegativity-allowlist.json').toEqual([]);
    expect(
      stale.map((e) => `${e.check} ${e.file}${e.sample ? ` "${e.sample}"` : ''}`),
      'allow-list entries that match no finding any more (remove them)',
    ).toEqual([]);
  }, 150_000);
});
