#!/usr/bin/env node
// `npm run dist`: the desktop app's installers for this computer's OS, in dist/ (electron-builder.yml:
// Linux AppImage and deb, macOS dmg, Windows NSIS installer). Builds first (`npm run build`).
// Arguments after `--` go to electron-builder: `npm run dist -- --linux dir` makes only the
// unpacked app. With BATCHDESK_UPDATE_URL set, the build carries that update feed (the app then
// looks there at each start) and dist/ also holds the latest*.yml files to publish beside the installers.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Node's own type stripping loads it (Node 22.18 and later).
import { IDENTITY_ENV, effectiveIdentity, identityProblems } from './release-identity.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`npm run dist: ${message}\n`);
  process.exit(2);
}

// The deb names its maintainer and home page (electron-builder.yml); electron-builder would stop
// half-way without them, and a placeholder would send users' questions nowhere.
const debWanted = process.platform === 'linux' && (args.length === 0 || args.some((a) => /\bdeb\b/.test(a)));
const builderYml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
if (debWanted) {
  const problems = identityProblems(builderYml, process.env);
  if (problems.length > 0)
    fail(
      `${problems.join(' ')} The deb names them: set ${IDENTITY_ENV.maintainer}="Name <address@domain>" and ${IDENTITY_ENV.homepage}=https://host/ (or edit electron-builder.yml), or build the AppImage only: npm run dist -- --linux AppImage`,
    );
}
const identityArgs = effectiveIdentity(builderYml, process.env).overrides;

const feedArgs = [];
const feed = process.env.BATCHDESK_UPDATE_URL?.trim();
if (feed) {
  let url;
  try {
    url = new URL(feed);
  } catch {
    fail(
      `BATCHDESK_UPDATE_URL (${feed}) is not a URL. Set it to the https:// folder where the installers and latest*.yml will be published, or unset it for a build without updates.`,
    );
  }
  if (url.protocol !== 'https:')
    fail(`BATCHDESK_UPDATE_URL (${feed}) must be https:// (an update must not be changeable on the way). Unset it for a build without updates.`);
  feedArgs.push('-c.publish.provider=generic', `-c.publish.url=${url.toString()}`);
}

// npm sets npm_execpath when this runs as `npm run dist`; run npm's own script with this Node.
const npmCli = process.env.npm_execpath;
const build = npmCli
  ? spawnSync(process.execPath, [npmCli, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) fail('`npm run build` failed (above); nothing was packaged.');

const builderCli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
const r = spawnSync(process.execPath, [builderCli, '--config', 'electron-builder.yml', '--publish', 'never', ...identityArgs, ...feedArgs, ...args], {
  cwd: root,
  stdio: 'inherit',
});
if (r.status !== 0)
  fail(
    'electron-builder failed (above). Its first error line names the cause; `npm run dist -- --linux dir` (or --mac dir, --win dir) builds only the unpacked app.',
  );
process.stdout.write(`\nInstallers are in ${join(root, 'dist')}${feed ? `; publish them with the latest*.yml files at ${feed}` : ''}.\n`);
