// "Install Command Line Tool…": which way each platform takes, and the link itself on a real
// file system (a temp folder standing for /usr/local/bin).
import { chmodSync, lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adminAppleScript, commandLineToolPlan, installedMessage, linkLauncher, shellQuote } from '../../../src/main/electron/command-line-tool';
import { appMenuTemplate, INSTALL_TOOL_LABEL } from '../../../src/main/electron/app-menu';
import { tempDir } from '../../helpers/temp-dir';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function temp(): string {
  const d = tempDir();
  dirs.push(d);
  return d.path;
}

describe('commandLineToolPlan', () => {
  it('links into /usr/local/bin on macOS and adds the launcher folder to the Path on Windows', () => {
    expect(commandLineToolPlan({ platform: 'darwin', packaged: true, resourcesPath: '/Applications/Batchdesk.app/Contents/Resources' })).toEqual({
      kind: 'link',
      launcher: '/Applications/Batchdesk.app/Contents/Resources/bin/batchdesk',
      link: '/usr/local/bin/batchdesk',
    });
    expect(commandLineToolPlan({ platform: 'win32', packaged: true, resourcesPath: '/apps/Batchdesk/resources' })).toEqual({
      kind: 'user_path',
      folder: join('/apps/Batchdesk/resources', 'bin'),
    });
  });

  it('explains instead where the app cannot or need not do it', () => {
    const linux = commandLineToolPlan({ platform: 'linux', packaged: true, resourcesPath: '/opt/Batchdesk/resources' });
    expect(linux).toMatchObject({ kind: 'none' });
    if (linux.kind === 'none') expect(linux.message).toContain('/usr/bin/batchdesk');
    const dev = commandLineToolPlan({ platform: 'darwin', packaged: false, resourcesPath: '/x' });
    expect(dev).toMatchObject({ kind: 'none' });
    if (dev.kind === 'none') expect(dev.message).toContain('npm link');
  });
});

describe('linkLauncher', () => {
  it('links, says when the link is already there, and replaces a link to a moved app', () => {
    const root = temp();
    const launcher = join(root, 'Batchdesk.app', 'bin', 'batchdesk');
    const link = join(root, 'usr-local-bin', 'batchdesk');
    expect(linkLauncher(launcher, link)).toEqual({ kind: 'linked' });
    expect(readlinkSync(link)).toBe(launcher);
    expect(linkLauncher(launcher, link)).toEqual({ kind: 'already' });
    const moved = join(root, 'Moved.app', 'bin', 'batchdesk');
    expect(linkLauncher(moved, link)).toEqual({ kind: 'linked' });
    expect(readlinkSync(link)).toBe(moved);
  });

  it('leaves a real file alone', () => {
    const root = temp();
    const link = join(root, 'batchdesk');
    writeFileSync(link, '#!/bin/sh\necho another batchdesk\n');
    const r = linkLauncher('/Applications/Batchdesk.app/Contents/Resources/bin/batchdesk', link);
    expect(r.kind).toBe('occupied');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('asks for an administrator where the folder is not writable', () => {
    const root = temp();
    const bin = join(root, 'bin');
    mkdirSync(bin);
    chmodSync(bin, 0o555);
    try {
      const r = linkLauncher("/Apps/It's Batchdesk.app/bin/batchdesk", join(bin, 'batchdesk'));
      expect(r).toEqual({
        kind: 'needs_admin',
        command: `mkdir -p '${bin}' && ln -sfn '/Apps/It'\\''s Batchdesk.app/bin/batchdesk' '${join(bin, 'batchdesk')}'`,
      });
    } finally {
      chmodSync(bin, 0o755);
    }
  });

  it('replaces an old dangling link too', () => {
    const root = temp();
    const link = join(root, 'batchdesk');
    symlinkSync(join(root, 'gone', 'batchdesk'), link);
    expect(linkLauncher(join(root, 'new', 'batchdesk'), link)).toEqual({ kind: 'linked' });
  });
});

describe('quoting for the administrator run', () => {
  it('keeps a path one word for sh and one string for AppleScript', () => {
    expect(shellQuote("/Apps/It's here")).toBe(`'/Apps/It'\\''s here'`);
    expect(adminAppleScript(`ln -s '/a "b"\\c' /usr/local/bin/batchdesk`)).toBe(
      `do shell script "ln -s '/a \\"b\\"\\\\c' /usr/local/bin/batchdesk" with administrator privileges`,
    );
  });

  it('tells the user what to type next', () => {
    expect(installedMessage('added', 'C:\\Batchdesk\\resources\\bin')).toContain('Open a new terminal');
    expect(installedMessage('linked', '/usr/local/bin/batchdesk')).toContain('batchdesk --help');
  });
});

describe('appMenuTemplate', () => {
  const labels = (platform: NodeJS.Platform) => {
    const [first] = appMenuTemplate({ platform, appName: 'Batchdesk', installCommandLineTool: () => undefined });
    return Array.isArray(first?.submenu) ? first.submenu.map((i) => i.label ?? i.role ?? i.type) : [];
  };
  it('offers Install Command Line Tool… on macOS and Windows, not on Linux (the deb installs it)', () => {
    expect(labels('darwin')).toContain(INSTALL_TOOL_LABEL);
    expect(labels('win32')).toContain(INSTALL_TOOL_LABEL);
    expect(labels('linux')).not.toContain(INSTALL_TOOL_LABEL);
  });
  it('calls back when chosen', () => {
    let called = 0;
    const [first] = appMenuTemplate({ platform: 'darwin', appName: 'Batchdesk', installCommandLineTool: () => called++ });
    const item = Array.isArray(first?.submenu) ? first.submenu.find((i) => i.label === INSTALL_TOOL_LABEL) : undefined;
    item?.click?.({} as never, undefined, {} as never);
    expect(called).toBe(1);
  });
});
