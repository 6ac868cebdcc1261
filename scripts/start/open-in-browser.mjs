// Asks the desktop to open a URL in the default browser. Best effort: a missing opener (a server,
// a container) is not an error, since the URL is printed anyway.
import { spawn } from 'node:child_process';

/** @returns {[string, string[]] | null} */
export function desktopOpener(url, platform = process.platform, env = process.env) {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  // Without a graphical session xdg-open may start a text browser inside this very terminal.
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', [url]];
  return null;
}

/** @returns {Promise<string | null>} the opener used, or null when none could be started */
export function openInBrowser(url, platform = process.platform, env = process.env) {
  const opener = desktopOpener(url, platform, env);
  if (!opener) return Promise.resolve(null);
  const [command, args] = opener;
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsHide: true, windowsVerbatimArguments: platform === 'win32' });
    child.once('error', () => resolve(null));
    child.once('spawn', () => {
      child.unref();
      resolve(command);
    });
  });
}
