#!/usr/bin/env node
// Runs a command inside a private D-Bus session with an unlocked GNOME Keyring, so the keychain
// tests talk to a real Secret Service without touching the user's own keyring. XDG_DATA_HOME
// points at a fresh temp folder: the test keyring is thrown away afterwards.
// Where dbus-run-session or gnome-keyring-daemon are missing (macOS, Windows, a desktop that
// already has a keychain) the command runs as is, against the system keychain.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: with-keyring.mjs <command> [args...]');
  process.exit(2);
}
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

let result;
if (process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon')) {
  const dataHome = mkdtempSync(join(tmpdir(), 'batchdesk-keyring-'));
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `printf batchdesk | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec npx ${quoted}`;
  result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
    stdio: 'inherit',
    env: { ...process.env, XDG_DATA_HOME: dataHome, BATCHDESK_REAL_KEYCHAIN: '1' },
  });
  rmSync(dataHome, { recursive: true, force: true });
} else {
  if (process.platform === 'linux')
    console.error('with-keyring: dbus-run-session or gnome-keyring-daemon not found; keychain tests will report that (install dbus and gnome-keyring).');
  result = spawnSync('npx', args, { stdio: 'inherit' });
}
process.exit(result.status ?? 1);
