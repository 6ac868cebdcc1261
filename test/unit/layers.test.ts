// The layer rules (.dependency-cruiser.cjs, run by `npm run lint:layers`) on a small made-up tree:
// each broken rule must fail the check by its name, on the import that breaks it, and the tree
// without those imports must pass, so a rule that matches nothing (a renamed folder, a mistyped
// pattern, a filter that hides node: modules) cannot pass unnoticed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir';

const ROOT = process.cwd();
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

/** A sound tree: each import runs down a floor of the engine or a wall of the house. */
const SOUND: Record<string, string> = {
  'node_modules/better-sqlite3/package.json': `{ "name": "better-sqlite3", "version": "0.0.0", "main": "index.js" }`,
  'node_modules/better-sqlite3/index.js': `module.exports = {};`,
  'src/shared/money.ts': `export const cents = 100;`,
  'src/main/engine/clock.ts': `import { cents } from '../../shared/money';\nexport const now = (): number => cents;`,
  'src/main/engine/db/connection.ts': `import Database from 'better-sqlite3';\nimport { now } from '../clock';\nexport const db = [Database, now()];`,
  'src/main/engine/queue/job-store.ts': `import { db } from '../db/connection';\nexport const jobs = db;`,
  'src/main/engine/dispatch/runner.ts': `import { jobs } from '../queue/job-store';\nexport const run = jobs;`,
  'src/main/engine/control/pause.ts': `import { run } from '../dispatch/runner';\nexport const pause = run;`,
  'src/main/engine/engine.ts': `import { pause } from './control/pause';\nexport const engine = pause;`,
  'src/main/desk/desk.ts': `import { engine } from '../engine/engine';\nexport const desk = engine;`,
  'src/main/service/handlers.ts': `import { desk } from '../desk/desk';\nexport const handlers = desk;`,
  'src/main/cli/main.ts': `import { handlers } from '../service/handlers';\nexport const cli = handlers;`,
  'src/renderer/src/app.tsx': `import { cents } from '../../shared/money';\nexport const App = (): number => cents;`,
};

/** Files that each break one rule: [what, rule, the importing file, its text]. */
const BREAKS: [string, string, string, string][] = [
  [
    'an engine floor importing one above it',
    'engine-floor:queue',
    'src/main/engine/queue/upward.ts',
    `import { run } from '../dispatch/runner';\nexport const up = run;`,
  ],
  [
    'a type import running back up',
    'engine-floor:db',
    'src/main/engine/db/typed.ts',
    `import type { Run } from '../dispatch/run-type';\nexport type Typed = Run;`,
  ],
  [
    'a file allowed one import up (ALLOWED_FOR_NOW) importing a face',
    'engine-stands-on-shared',
    'src/main/engine/team/team-create.ts',
    `import { cli } from '../../cli/main';\nexport const made = cli;`,
  ],
  [
    'an engine part importing engine/control',
    'engine-floor:dispatch',
    'src/main/engine/dispatch/controls.ts',
    `import { pause } from '../control/pause';\nexport const c = pause;`,
  ],
  [
    'engine/control importing engine.ts',
    'engine-floor:control',
    'src/main/engine/control/resume.ts',
    `import { engine } from '../engine';\nexport const resume = engine;`,
  ],
  [
    'an engine folder on no floor',
    'engine-module-on-a-floor',
    'src/main/engine/gadgets/gadget.ts',
    `import { now } from '../clock';\nexport const gadget = now;`,
  ],
  [
    'the engine importing the desk',
    'engine-stands-on-shared',
    'src/main/engine/queue/desk-user.ts',
    `import { desk } from '../../desk/desk';\nexport const d = desk;`,
  ],
  [
    'the desk importing the service',
    'desk-over-control',
    'src/main/desk/served.ts',
    `import { handlers } from '../service/handlers';\nexport const s = handlers;`,
  ],
  ['the service importing a face', 'service-over-desk', 'src/main/service/faced.ts', `import { cli } from '../cli/main';\nexport const f = cli;`],
  [
    'the renderer importing the engine',
    'renderer-uses-shared',
    'src/renderer/src/jobs.tsx',
    `import { jobs } from '../../main/engine/queue/job-store';\nexport const Jobs = jobs;`,
  ],
  [
    'the renderer importing a node: module',
    'renderer-has-no-node',
    'src/renderer/src/paths.ts',
    `import { join } from 'node:path';\nexport const p = join('a');`,
  ],
  [
    "the engine loading the window's call schemas",
    'window-calls-in-window-faces',
    'src/main/engine/queue/calls-user.ts',
    `import { methods } from '../../../shared/contract-calls';\nexport const m = methods;`,
  ],
  ['shared importing a node: module', 'shared-runs-anywhere', 'src/shared/eol.ts', `import { EOL } from 'node:os';\nexport const eol = EOL;`],
  ['SQL outside the engine', 'sql-only-in-the-engine', 'src/main/service/sql.ts', `import Database from 'better-sqlite3';\nexport const d = Database;`],
  ['a cycle', 'no-circular', 'src/shared/euro.ts', `import { back } from './back';\nexport const euro = back;`],
];
const MORE: Record<string, string> = {
  'src/main/engine/dispatch/run-type.ts': `export type Run = number;`,
  'src/main/engine/failures.ts': `export const failure = 1;`,
  'src/shared/contract-calls.ts': `export const methods = {};`,
  'src/shared/back.ts': `import { euro } from './euro';\nexport const back = (): unknown => euro;`,
};

interface Report {
  summary: { error: number; violations: { from: string; to: string; rule: { name: string } }[] };
}

const dirs: (() => void)[] = [];
afterAll(() => dirs.forEach((cleanup) => cleanup()));

/**
 * Runs the check on a tree of these files: the exit status of the command `npm run lint:layers`
 * runs (its JSON report exits 0 whatever it finds) and the report naming each rule broken.
 */
function check(files: Record<string, string>): { status: number | null; report: Report } {
  const dir = tempDir('batchdesk-layers-');
  dirs.push(dir.cleanup);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir.path, file)), { recursive: true });
    writeFileSync(join(dir.path, file), `${text}\n`);
  }
  const run = (...more: string[]) => spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, ...more], { cwd: dir.path, encoding: 'utf8' });
  const status = run().status;
  const r = run('--output-type', 'json');
  if (r.stdout === '') throw new Error(`depcruise printed no report (status ${String(r.status)}): ${r.stderr}`);
  return { status, report: JSON.parse(r.stdout) as Report };
}

describe('the layer check', () => {
  let sound: ReturnType<typeof check>;
  let broken: ReturnType<typeof check>;
  beforeAll(() => {
    sound = check(SOUND);
    broken = check({ ...SOUND, ...MORE, ...Object.fromEntries(BREAKS.map(([, , file, text]) => [file, text])) });
  });

  it('passes a tree whose imports all run down', () => {
    expect(sound.report.summary.violations).toEqual([]);
    expect(sound.status).toBe(0);
  });

  it('fails a tree with an import that breaks a rule', () => {
    expect(broken.status).not.toBe(0);
    expect(broken.report.summary.error).toBeGreaterThanOrEqual(BREAKS.length);
  });

  it.each(BREAKS)('fails %s (%s)', (_what, rule, file) => {
    const named = broken.report.summary.violations.filter((v) => v.rule.name === rule);
    // A cycle is reported from whichever of its modules the check reached first.
    const from = rule === 'no-circular' ? named.map((v) => (v.from === 'src/shared/back.ts' ? file : v.from)) : named.map((v) => v.from);
    expect(from).toContain(file);
  });
});
