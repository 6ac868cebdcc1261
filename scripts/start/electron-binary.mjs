// Where Electron's binary should be, found the way node_modules/electron/index.js finds it, but
// without importing that file: it throws when the binary was never downloaded.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The binary's path inside Electron's dist folder, per platform (as electron/install.js names it). */
function platformPath(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/**
 * @param {string} root the Batchdesk package folder
 * @returns {{ found: true, path: string } | { found: false, path: string, packageMissing: boolean }}
 */
export function findElectronBinary(root, env = process.env, platform = process.platform) {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return { found: false, path: pkg, packageMissing: true };
  const pathFile = join(pkg, 'path.txt');
  const recorded = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  // Without path.txt (the download never ran) only an override folder can supply a binary.
  if (!recorded && !override) return { found: false, path: join(pkg, 'dist', platformPath(platform)), packageMissing: false };
  const path = override ? join(override, recorded || 'electron') : join(pkg, 'dist', recorded);
  return existsSync(path) ? { found: true, path } : { found: false, path, packageMissing: false };
}
