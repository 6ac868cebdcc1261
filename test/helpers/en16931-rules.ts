// The official CEN EN 16931 business rules for UBL (the published XSLT, test/vendor/en16931), run
// with SaxonJS: compiled once into SaxonJS's form, cached by the XSLT's hash under .tmp/.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const XSLT = join(ROOT, 'test', 'vendor', 'en16931', 'EN16931-UBL-validation.xslt');
const require = createRequire(import.meta.url);

interface Saxon {
  transform(options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' }, mode: 'async'): Promise<{ principalResult: string }>;
}
const SaxonJS = require('saxon-js') as Saxon;

/** The compiled rules (minutes the first time on a slow machine, read from the cache after). */
export function compiledCenRules(): unknown {
  const hash = createHash('sha256').update(readFileSync(XSLT)).digest('hex').slice(0, 16);
  const dir = join(ROOT, '.tmp', 'en16931');
  const sef = join(dir, `EN16931-UBL-validation.${hash}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(dir, { recursive: true });
    const xslt3 = require.resolve('xslt3/xslt3.js');
    const r = spawnSync(process.execPath, [xslt3, `-xsl:${XSLT}`, `-export:${sef}`, '-nogo'], { encoding: 'utf8', timeout: 600_000 });
    if (r.status !== 0) throw new Error(`compiling the CEN XSLT failed: ${r.stderr || r.stdout}`);
  }
  return JSON.parse(readFileSync(sef, 'utf8')) as unknown;
}

/** The fatal CEN rules the document breaks: "BR-10", ... */
export async function fatalRules(stylesheet: unknown, xml: string): Promise<string[]> {
  const out = await SaxonJS.transform({ stylesheetInternal: stylesheet, sourceText: xml, destination: 'serialized' }, 'async');
  const fails = [...out.principalResult.matchAll(/<svrl:failed-assert\b[^>]*>/g)].map((m) => m[0]);
  return fails.filter((f) => /flag="fatal"/.test(f)).map((f) => /\bid="([^"]+)"/.exec(f)?.[1] ?? '?');
}
