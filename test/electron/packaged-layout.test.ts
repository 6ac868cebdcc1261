// Packages the built app for real with electron-builder (electron-builder.yml, `--linux dir`),
// offline: Electron's binary cannot be downloaded here, so `electronDist` points at a stand-in
// Electron folder whose "binary" is a shell script printing what it was asked to run. Then the
// package is read as an installer would ship it: what is inside app.asar, which native binaries
// are unpacked (only linux-x64's SQLite driver), the `batchdesk` launcher (followed through a
// link, as /usr/bin/batchdesk is), and the packaged command line, taken out of the archive and
// run (the demo, end to end on its embedded sandbox).
//
// electron-builder reads the production dependencies with `npm ls`, which calls every package
// extraneous when node_modules is a link (a git worktree's): the project is staged in a temp
// folder and the dependencies collected by walking node_modules (its "traversal" collector, chosen
// by npm_config_user_agent). Both give the same 63 packages on a plain install.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import asar from '@electron/asar';
import { tempDir } from '../helpers/temp-dir';
import { APP_ID } from '../../src/main/electron/app-id';
import { effectiveIdentity, identityProblems, releaseIdentity } from '../../scripts/release-identity';

const root = process.cwd();
const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!onLinuxX64)('packaged app (electron-builder --linux dir, stand-in Electron)', () => {
  const tmp = tempDir('batchdesk-package-');
  const app = join(tmp.path, 'dist', 'linux-unpacked');
  const resources = join(app, 'resources');
  let files: string[] = [];
  let unpacked: string[] = [];

  beforeAll(() => {
    if (!existsSync(join(root, 'out', 'main', 'index.js'))) throw new Error('out/ is not built: run `npm run build` first');
    // A stand-in Electron distribution: the "binary" prints its environment's ELECTRON_RUN_AS_NODE and its arguments.
    const electron = join(tmp.path, 'electron-dist');
    mkdirSync(join(electron, 'locales'), { recursive: true });
    mkdirSync(join(electron, 'resources'));
    writeFileSync(join(electron, 'electron'), '#!/bin/sh\necho "ELECTRON_RUN_AS_NODE=$ELECTRON_RUN_AS_NODE"\nfor a in "$@"; do echo "arg: $a"; done\n');
    chmodSync(join(electron, 'electron'), 0o755);
    writeFileSync(join(electron, 'chrome-sandbox'), '');
    writeFileSync(join(electron, 'locales', 'en-US.pak'), '');

    const stage = join(tmp.path, 'project');
    mkdirSync(stage);
    for (const f of ['package.json', 'electron-builder.yml', 'out', 'resources']) cpSync(join(root, f), join(stage, f), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(stage, 'node_modules'));

    const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
    const r = spawnSync(
      process.execPath,
      [
        cli,
        '--projectDir',
        stage,
        '--config',
        'electron-builder.yml',
        '--linux',
        'dir',
        '--x64',
        '--publish',
        'never',
        `-c.electronDist=${electron}`,
        `-c.directories.output=${join(tmp.path, 'dist')}`,
      ],
      { cwd: stage, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_user_agent: 'traversal', CI: '' } },
    );
    if (r.status !== 0) throw new Error(`electron-builder failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
    unpacked = files.filter((f) => existsSync(join(resources, 'app.asar.unpacked', f)) && statSync(join(resources, 'app.asar.unpacked', f)).isFile());
  }, 300_000);

  afterAll(() => tmp.cleanup());

  it('puts the built app in app.asar, and not the sources, tests or tools', () => {
    for (const f of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/cli.js',
      '/out/main/host.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/resources/icons/tray.png',
      '/resources/icons/tray@2x.png',
      '/resources/samples/messages.csv',
      '/resources/samples/e-invoices/xrechnung-brennholt-RE-2026-0311.xml',
      '/resources/samples/e-invoices/zugferd-lindqvist-RE-2026-0520.pdf',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => f.startsWith('/out/renderer/assets/') && f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => /^\/out\/main\/fresh-database-v\d+\.sqlite$/.test(f))).toBe(true);
    for (const prefix of [
      '/src/',
      '/test/',
      '/scripts/',
      '/node_modules/electron/',
      '/node_modules/vitest/',
      '/node_modules/typescript/',
      '/node_modules/electron-builder/',
      '/node_modules/better-sqlite3/deps/',
      '/node_modules/better-sqlite3/src/',
    ]) {
      expect(
        files.filter((f) => f.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('electron-builder.yml'))).toEqual([]);
    for (const dep of Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)) {
      expect(files, dep).toContain(`/node_modules/${dep}/package.json`);
    }
  });

  it('ships the linux-x64 SQLite driver only, unpacked from the archive with the other native binaries', () => {
    expect(files.filter((f) => f.startsWith('/node_modules/better-sqlite3/prebuilds/'))).toEqual(['/node_modules/better-sqlite3/prebuilds/linux-x64.node']);
    expect(unpacked).toContain('/node_modules/better-sqlite3/prebuilds/linux-x64.node');
    expect(unpacked.some((f) => f.startsWith('/node_modules/@napi-rs/keyring-linux-x64-gnu/') && f.endsWith('.node'))).toBe(true);
    // Every native binary is outside the archive (one inside could not be loaded); electron-builder
    // unpacks the rest of those packages with them, and nothing else.
    expect(files.filter((f) => f.endsWith('.node')).every((f) => unpacked.includes(f))).toBe(true);
    const nativePackages = ['/node_modules/better-sqlite3/', '/node_modules/@napi-rs/keyring-linux-x64-gnu/', '/node_modules/@napi-rs/canvas-linux-x64-gnu/'];
    expect(unpacked.filter((f) => !nativePackages.some((p) => f.startsWith(p)))).toEqual([]);
  });

  it('carries the `batchdesk` launcher, which runs the app binary as Node on the packaged CLI, through a link too', () => {
    const launcher = join(resources, 'bin', 'batchdesk');
    expect(statSync(launcher).mode & 0o111).toBe(0o111);
    // As the deb's /usr/bin/batchdesk: a link somewhere else (after-install.sh makes it).
    const usrBin = join(tmp.path, 'usr-bin');
    mkdirSync(usrBin);
    symlinkSync(launcher, join(usrBin, 'batchdesk'));
    const r = spawnSync(join(usrBin, 'batchdesk'), ['status', '--json', 'a b'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'ELECTRON_RUN_AS_NODE=1',
      `arg: ${join(realpathSync(resources), 'app.asar', 'out', 'main', 'cli.js')}`,
      'arg: status',
      'arg: --json',
      'arg: a b',
      '',
    ]);
    // The app's binary is where the deb's after-install script and the launcher expect it.
    expect(existsSync(join(app, 'batchdesk'))).toBe(true);
    expect(readFileSync(join(root, 'resources', 'linux', 'after-install.sh'), 'utf8')).toContain(
      "LAUNCHER='/opt/${sanitizedProductName}/resources/bin/${executable}'",
    );
  });

  it("gives the packaged package.json the homepage a deb's Homepage field is taken from", () => {
    const meta = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as { homepage?: unknown };
    expect(meta.homepage).toMatch(/^https:\/\/[^\s/]+\//);
  });

  it('says so when the app it belongs to is gone', () => {
    const lone = join(tmp.path, 'lone', 'resources', 'bin');
    mkdirSync(lone, { recursive: true });
    cpSync(join(resources, 'bin', 'batchdesk'), join(lone, 'batchdesk'));
    const r = spawnSync(join(lone, 'batchdesk'), ['--help'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^batchdesk: the Batchdesk app this command belongs to is not at .*Reinstall Batchdesk/);
  });

  it('holds everything the command line needs: taken out of the archive, it runs the demo end to end', () => {
    const extracted = join(tmp.path, 'extracted');
    asar.extractAll(join(resources, 'app.asar'), extracted);
    const data = join(tmp.path, 'demo-data');
    const r = spawnSync(process.execPath, [join(extracted, 'out', 'main', 'cli.js'), 'demo', '--data-dir', data], {
      cwd: tmp.path,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).not.toMatch(/Cannot find|ERR_MODULE|ERR_DLOPEN|could not be loaded/);
    expect(r.status).toBe(0);
    // The samples, the sandbox, the PDF reader and the SQLite driver all came from the package.
    expect(r.stdout).toContain(`First result of`);
    expect(r.stdout).toContain(join(extracted, 'resources', 'samples', 'invoices'));
    expect(existsSync(join(data, 'batchdesk.sqlite'))).toBe(true);
  });
});

describe('electron-builder.yml', () => {
  it('gives the installers the app id the app uses for its notifications (Windows)', () => {
    expect(readFileSync(join(root, 'electron-builder.yml'), 'utf8')).toMatch(new RegExp(`^appId: ${APP_ID.replaceAll('.', '\\.')}$`, 'm'));
  });

  it("names the deb's maintainer and homepage, without which electron-builder refuses to build a deb", () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    // A top-level section's own lines: up to the next line that is not indented (comments aside).
    const section = (name: string): string => (yml.split(new RegExp(`^${name}:$`, 'm'))[1] ?? '').split(/^(?=[^\s#])/m)[0] ?? '';
    expect(section('deb')).toMatch(/^ {2}maintainer: [^<>\n]+ <[^\s@<>]+@[^\s@<>]+>$/m);
    expect(section('extraMetadata')).toMatch(/^ {2}homepage: https:\/\/[^\s/]+\/$/m);
  });

  it('reads the maintainer, vendor and homepage `npm run dist` checks from where electron-builder takes them', () => {
    const id = releaseIdentity(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
    expect(id.maintainer).toMatch(/^[^<>\n]+ <[^\s@<>]+@[^\s@<>]+>$/);
    expect(id.vendor).toMatch(/^[^<>\n]+ <[^\s@<>]+@[^\s@<>]+>$/);
    expect(id.homepage).toMatch(/^https:\/\/[^\s/]+\/$/);
  });

  it('refuses a deb naming a placeholder maintainer, vendor or homepage, and accepts real ones', () => {
    const yml = (maintainer: string, homepage: string): string =>
      `appId: x\nextraMetadata:\n  homepage: ${homepage}\ndeb:\n  # who\n  maintainer: ${maintainer}\n  vendor: ${maintainer}\nmac:\n  category: y\n`;
    expect(identityProblems(yml('Ada Team <ada@batch.co.uk>', 'https://batch.co.uk/'))).toEqual([]);
    for (const [maintainer, homepage, bad] of [
      ['Dev <dev@batchdesk.invalid>', 'https://batch.co.uk/', 'batchdesk.invalid'],
      ['Ada <ada@batch.co.uk>', 'https://www.example.com/', 'www.example.com'],
      ['Ada <ada@mail.test>', 'https://batch.co.uk/', 'mail.test'],
      ['Ada <ada@batch.co.uk>', 'https://localhost/', 'localhost'],
    ] as const) {
      const problems = identityProblems(yml(maintainer, homepage));
      expect(problems.length, `${maintainer} ${homepage}`).toBeGreaterThan(0);
      expect(problems.every((p) => p.includes(`(${bad} is a reserved name)`))).toBe(true);
    }
    expect(identityProblems(yml('no address', 'https://batch.co.uk/'))).toEqual([
      'electron-builder.yml: deb.maintainer is missing or not of the form "Name <address@domain>".',
      'electron-builder.yml: deb.vendor is missing or not of the form "Name <address@domain>".',
    ]);
  });
});

describe('the publisher names the deb from the release job, not a commit', () => {
  const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');

  it('refuses the committed placeholder and accepts BATCHDESK_MAINTAINER and BATCHDESK_HOMEPAGE, carried into the build', () => {
    expect(identityProblems(yml, {}).length).toBeGreaterThan(0);
    const env = { BATCHDESK_MAINTAINER: 'Ada Team <ada@batch.co.uk>', BATCHDESK_HOMEPAGE: 'https://batch.co.uk/' };
    expect(identityProblems(yml, env)).toEqual([]);
    expect(effectiveIdentity(yml, env).overrides).toEqual([
      '-c.deb.maintainer=Ada Team <ada@batch.co.uk>',
      '-c.deb.vendor=Ada Team <ada@batch.co.uk>',
      '-c.extraMetadata.homepage=https://batch.co.uk/',
    ]);
  });

  it('names the variable that holds a placeholder, and the file when only the file was used', () => {
    expect(identityProblems(yml, { BATCHDESK_MAINTAINER: 'Dev <dev@x.invalid>', BATCHDESK_HOMEPAGE: 'https://batch.co.uk/' })).toEqual([
      "BATCHDESK_MAINTAINER (Dev <dev@x.invalid>) is a placeholder (x.invalid is a reserved name): set it to the project's real contact.",
    ]);
    expect(identityProblems(yml, { BATCHDESK_MAINTAINER: 'Ada <ada@batch.co.uk>' })[0]).toMatch(/^electron-builder\.yml: extraMetadata\.homepage \(/);
  });

  it('has the release workflow pass the repository variables to `npm run dist`', () => {
    const workflow = readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8');
    expect(workflow).toContain('BATCHDESK_MAINTAINER: ${{ vars.BATCHDESK_MAINTAINER }}');
    expect(workflow).toContain('BATCHDESK_HOMEPAGE: ${{ vars.BATCHDESK_HOMEPAGE }}');
  });
});

describe('icons', () => {
  it('has a 1024x1024 PNG app icon (electron-builder derives .icns and .ico from it) and its SVG source', () => {
    const png = readFileSync(join(root, 'resources', 'icons', 'icon.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    expect(readFileSync(join(root, 'resources', 'icons', 'icon.svg'), 'utf8')).toContain('viewBox="0 0 1024 1024"');
  });
});
