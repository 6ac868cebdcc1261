// Updates are off until a feed is set; with one, only an installed app that can replace itself looks.
import { describe, expect, it } from 'vitest';
import { decideUpdates, type UpdateFacts } from '../../../src/main/electron/update-policy';
import { updateDecision } from '../../../src/main/electron/auto-update';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp-dir';

const installed: UpdateFacts = { envUrl: undefined, packaged: true, builtInFeed: false, platform: 'win32', appImage: false, linuxPackageType: null };

describe('decideUpdates', () => {
  it('never checks without a feed, on any platform, installed or not', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      for (const packaged of [true, false]) {
        for (const envUrl of [undefined, '', '  ']) {
          const d = decideUpdates({ ...installed, platform, packaged, envUrl, appImage: true });
          expect(d).toMatchObject({ check: false, why: 'no_feed' });
        }
      }
    }
  });

  it('checks the feed set at run time, or the one the build was made with', () => {
    expect(decideUpdates({ ...installed, envUrl: 'https://updates.example.com/batchdesk/' })).toEqual({
      check: true,
      feed: { url: 'https://updates.example.com/batchdesk/' },
    });
    expect(decideUpdates({ ...installed, builtInFeed: true })).toEqual({ check: true, feed: 'built_in' });
    expect(decideUpdates({ ...installed, builtInFeed: true, envUrl: 'https://other.example.com/' })).toEqual({
      check: true,
      feed: { url: 'https://other.example.com/' },
    });
  });

  it('turns a built-in feed off with BATCHDESK_UPDATE_URL=off', () => {
    expect(decideUpdates({ ...installed, builtInFeed: true, envUrl: 'OFF' })).toMatchObject({ check: false, why: 'turned_off' });
  });

  it('refuses a feed that could be read or changed on the way', () => {
    for (const url of ['http://updates.example.com/', 'ftp://x/', 'not a url', 'https://user:pw@updates.example.com/']) {
      const d = decideUpdates({ ...installed, envUrl: url });
      expect(d).toMatchObject({ check: false, why: 'bad_url' });
      if (!d.check) expect(d.message).toContain('Set it to the folder that holds latest.yml');
    }
    expect(decideUpdates({ ...installed, envUrl: 'http://127.0.0.1:8080/feed/' })).toMatchObject({ check: true });
  });

  it('does not check in a development checkout', () => {
    expect(decideUpdates({ ...installed, packaged: false, builtInFeed: true })).toMatchObject({ check: false, why: 'not_packaged' });
  });

  it('on Linux, checks only the AppImage or a package that can replace itself', () => {
    const linux = { ...installed, platform: 'linux' as const, builtInFeed: true };
    expect(decideUpdates(linux)).toMatchObject({ check: false, why: 'cannot_update_itself' });
    expect(decideUpdates({ ...linux, appImage: true })).toMatchObject({ check: true });
    expect(decideUpdates({ ...linux, linuxPackageType: 'deb' })).toMatchObject({ check: true });
  });
});

describe('updateDecision (the facts read from the app)', () => {
  it('finds the built-in feed and the package type in the resources folder', () => {
    const dir = tempDir();
    try {
      const env = {};
      expect(updateDecision({ packaged: true, resourcesPath: dir.path, env })).toMatchObject({ check: false, why: 'no_feed' });
      writeFileSync(join(dir.path, 'app-update.yml'), 'provider: generic\nurl: https://updates.example.com/\n');
      writeFileSync(join(dir.path, 'package-type'), 'deb\n');
      expect(updateDecision({ packaged: true, resourcesPath: dir.path, env })).toEqual({ check: true, feed: 'built_in' });
    } finally {
      dir.cleanup();
    }
  });
});
