// The Node Batchdesk runs on is stated once, in package.json's engines, and the README says the
// same; every installed package accepts every Node that range admits (so no EBADENGINE warning on
// a supported Node), and the Node CI tests on is inside it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { NODE_RANGE, supportsNode } from '../../bin/supported-node.js';

const ROOT = process.cwd();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
interface Manifest {
  engines?: { node?: string };
  packages?: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
}
const json = (path: string): Manifest => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Manifest;

describe('supported Node versions', () => {
  const engines = json('package.json').engines?.node ?? '';
  // The lowest version of each alternative: "^22.22.2 || >=24.15.0" -> 22.22.2, 24.15.0.
  const floors = engines.split('||').map((alt) => semver.minVersion(alt.trim())?.version ?? 'unreadable');

  it("the README states package.json's engines range and its floors", () => {
    expect(floors).not.toContain('unreadable');
    expect(readme).toContain(`\`${engines}\``);
    for (const v of floors) expect(readme).toContain(`Node ${semver.major(v)}.${semver.minor(v)}+`);
  });

  it("the command line's launcher refuses exactly the Node versions the range refuses", () => {
    expect(NODE_RANGE).toBe(engines);
    const tried = ['20.20.2', '22.12.0', '22.22.1', '22.22.2', '22.30.0', '23.11.0', '24.0.0', '24.14.9', '24.15.0', '24.22.3', '25.1.0', '26.0.0'];
    for (const v of tried) expect(`${v}: ${supportsNode(NODE_RANGE, v)}`).toBe(`${v}: ${semver.satisfies(v, engines)}`);
  });

  it('every installed package accepts every floor of the range', () => {
    const refused = Object.entries(json('package-lock.json').packages ?? {})
      .filter(([path, p]) => path !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .flatMap(([path, p]) =>
        floors
          .filter((v) => !semver.satisfies(v, (p.engines as { node: string }).node))
          .map((v) => `${path} (${(p.engines as { node: string }).node}) refuses Node ${v}`),
      );
    expect(refused).toEqual([]);
  });

  it('CI tests on a Node inside the range, and the README names it', () => {
    const script = readFileSync(join(ROOT, 'scripts', 'node-runtimes.sh'), 'utf8');
    const main = /^main=(\S+)$/m.exec(script)?.[1] ?? '';
    expect(semver.satisfies(main, engines)).toBe(true);
    expect(readme).toContain(`Node ${main}`);
  });
});
