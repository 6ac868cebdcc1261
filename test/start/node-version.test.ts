// The README's "which Node" statement is the truth package.json and Electron's package declare, so a
// newcomer can judge the EBADENGINE warnings `npm install` prints on Node 20.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const json = (path: string): { engines?: { node?: string }; packages?: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> } =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as ReturnType<typeof json>;

/** "^20.19.0 || >=22.12.0" -> ["20.19", "22.12"]: the lowest version of each alternative. */
function lowerBounds(range: string): string[] {
  return range.split('||').map((alt) => {
    const m = /(\d+)(?:\.(\d+))?/.exec(alt);
    if (!m) throw new Error(`cannot read the range "${range}"`);
    return `${m[1]}.${m[2] ?? 0}`;
  });
}

const compare = (a: string, b: string): number => {
  const [a1 = 0, a2 = 0] = a.split('.').map(Number);
  const [b1 = 0, b2 = 0] = b.split('.').map(Number);
  return a1 - b1 || a2 - b2;
};

describe('Node versions in README', () => {
  const engines = json('package.json').engines?.node ?? '';
  const [minimum, ...others] = lowerBounds(engines);

  it("states package.json's engines range and its minimum", () => {
    expect(readme).toContain(`\`${engines}\``);
    const stated = [...readme.matchAll(/\bNode (\d+\.\d+)\+/g)].map((m) => m[1]);
    expect(stated.length).toBeGreaterThan(0);
    for (const v of stated) expect([minimum, ...others]).toContain(v);
    expect(stated).toContain(minimum);
  });

  it("states the Node that Electron's npm package declares, and says its warning is harmless", () => {
    const electron = json('node_modules/electron/package.json').engines?.node ?? '';
    const [electronMin] = lowerBounds(electron);
    expect(readme).toContain(`Node >= ${electronMin}`);
    expect(readme).toContain('EBADENGINE');
  });

  it('names every installed package whose declared Node excludes the minimum (the EBADENGINE warnings)', () => {
    // Lock entries declaring ">= X.Y" above the minimum are what npm warns about on that minimum;
    // optional platform packages (wasm) are not installed on the platforms Batchdesk supports.
    const warned = Object.entries(json('package-lock.json').packages ?? {})
      .filter(([, p]) => !p.optional && p.engines && !Array.isArray(p.engines) && /^>=\s*\d/.test(p.engines.node ?? ''))
      .filter(([, p]) => compare(lowerBounds((p.engines as { node: string }).node)[0] ?? '0.0', minimum ?? '0.0') > 0)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(warned.length).toBeGreaterThan(0);
    for (const name of warned) expect(readme, name).toContain(`\`${name}\``);
  });
});
