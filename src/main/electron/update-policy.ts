// Whether the desktop app looks for updates, and where. Off until a feed is set: a build made
// with BATCHDESK_UPDATE_URL carries it (electron-builder writes resources/app-update.yml), and
// BATCHDESK_UPDATE_URL at run time sets or overrides it ("off" turns a built-in feed off). The
// feed is a folder on a web server holding what `npm run dist` made (latest*.yml and installers).

export interface UpdateFacts {
  /** BATCHDESK_UPDATE_URL when the app started (undefined: not set). */
  envUrl: string | undefined;
  /** The app runs from an installer's package, not a development checkout. */
  packaged: boolean;
  /** resources/app-update.yml exists: the build was given a feed. */
  builtInFeed: boolean;
  platform: NodeJS.Platform;
  /** Linux: running as an AppImage ($APPIMAGE is set). */
  appImage: boolean;
  /** Linux: what electron-builder wrote to resources/package-type (deb, rpm, ...), null when absent. */
  linuxPackageType: string | null;
}

export type UpdateDecision =
  | { check: true; feed: { url: string } | 'built_in' }
  | { check: false; why: 'no_feed' | 'turned_off' | 'not_packaged' | 'cannot_update_itself' | 'bad_url'; message: string };

export function decideUpdates(f: UpdateFacts): UpdateDecision {
  const env = f.envUrl?.trim();
  if (env !== undefined && env.toLowerCase() === 'off') {
    return { check: false, why: 'turned_off', message: 'Updates are off (BATCHDESK_UPDATE_URL=off).' };
  }
  let feed: { url: string } | 'built_in';
  if (env !== undefined && env !== '') {
    const url = feedUrl(env);
    if (url === null) {
      return {
        check: false,
        why: 'bad_url',
        message: `Updates are off: BATCHDESK_UPDATE_URL (${env}) is not an https:// URL (http:// only for 127.0.0.1 or localhost). Set it to the folder that holds latest.yml.`,
      };
    }
    feed = { url };
  } else if (f.builtInFeed) {
    feed = 'built_in';
  } else {
    return { check: false, why: 'no_feed', message: 'Updates are off: no update feed is set (build with, or start with, BATCHDESK_UPDATE_URL).' };
  }
  if (!f.packaged) {
    return { check: false, why: 'not_packaged', message: 'Updates are off in a development checkout: only an installed Batchdesk updates itself.' };
  }
  if (f.platform === 'linux' && !f.appImage && f.linuxPackageType === null) {
    return {
      check: false,
      why: 'cannot_update_itself',
      message: 'Updates are off: this Linux installation is neither the AppImage nor a package (deb, rpm), so it cannot replace itself.',
    };
  }
  return { check: true, feed };
}

/** An update feed must not be readable or changeable on the way: https, or http on this computer. */
function feedUrl(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  const local = u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]';
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local)) return null;
  if (u.username !== '' || u.password !== '') return null;
  return u.toString();
}
