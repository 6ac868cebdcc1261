#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is installed; otherwise (a server, a
// locked-down machine, installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1) the same window served to
// the browser by the browser host, saying why, instead of Electron's "reinstall" error.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './start/electron-binary.mjs';
import { openInBrowser } from './start/open-in-browser.mjs';
import { runChild } from './start/child.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let electron = findElectronBinary(root);
// Electron 45 fetches its binary on first use, not at install: fetch it now, once, unless told not
// to (ELECTRON_SKIP_BINARY_DOWNLOAD=1, as CI and offline installs do).
if (!electron.found && !electron.packageMissing && !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  process.stderr.write("Fetching Electron's binary (once)...\n");
  const fetched = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (fetched.status !== 0) {
    // Node's fetch says only "fetch failed"; the reason (no DNS, refused, a certificate) is in a later line.
    const lines = (fetched.stderr ?? '').trim().split('\n');
    const cause = lines.slice(1).find((l) => /\b(E[A-Z_]{4,}|getaddrinfo|certificate|timed? ?out)\b/i.test(l));
    process.stderr.write(`Could not fetch it: ${lines[0] ?? ''}${cause ? ` (${cause.trim()})` : ''}\n`);
  }
  electron = findElectronBinary(root);
}

if (electron.found) {
  // As `electron .` did (node_modules/electron/cli.js): same arguments, signals and exit code.
  runChild(electron.path, ['.', ...args], { cwd: root, stdio: 'inherit', windowsHide: false }, ['SIGINT', 'SIGTERM', 'SIGUSR2']);
} else {
  const host = join(root, 'out', 'main', 'host.js');
  if (!existsSync(host)) {
    process.stderr.write('Batchdesk is not built yet: run `npm run build` first (`npm start` does).\n');
    process.exit(2);
  }
  const what = electron.packageMissing
    ? 'the electron package is not installed'
    : `Electron's binary is missing (${relative(root, electron.path) || electron.path})`;
  process.stderr.write(
    `${what}, so the same window is served to your browser instead (as \`npm run web\` does; ELECTRON_SKIP_BINARY_DOWNLOAD=1 installs and offline installs skip the binary).\n` +
      (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD
        ? 'For the desktop app: on a machine with internet access, unset ELECTRON_SKIP_BINARY_DOWNLOAD and run `npm start` again (it fetches the binary once), or `npx install-electron`.\n\n'
        : "For the desktop app: run `npm start` again where Electron's download site can be reached (it fetches the binary once; behind a proxy set HTTPS_PROXY, or a mirror with ELECTRON_MIRROR), or `npx install-electron`.\n\n"),
  );
  // Its own process group (POSIX), so a Ctrl-C reaches it once, through the forwarding below:
  // a second SIGINT makes the host stop at once instead of cleanly.
  const child = runChild(process.execPath, [host, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: process.platform !== 'win32' }, [
    'SIGINT',
    'SIGTERM',
    'SIGHUP',
  ]);
  let seen = '';
  let url = null;
  child.stdout?.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (url) return;
    seen += chunk.toString();
    url = /https?:\/\/\S+\?token=\S+/.exec(seen)?.[0] ?? null;
    if (url)
      void openInBrowser(url).then((opener) => {
        if (opener) process.stderr.write(`Asked your default browser to open it (${opener}).\n`);
      });
  });
  process.stdout.on('error', () => {}); // a closed terminal must not take the host down with it
}
