// Looks for an update once at start when update-policy.ts says so, downloads it in the
// background, and offers to restart into it (or it installs when the app quits). electron-updater
// is loaded only then: an app without a feed never loads it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppUpdater, UpdateInfo } from 'electron-updater';
import { decideUpdates, type UpdateDecision } from './update-policy';

export interface AutoUpdateDeps {
  packaged: boolean;
  /** process.resourcesPath of the running app. */
  resourcesPath: string;
  env: NodeJS.ProcessEnv;
  log(message: string): void;
  /** Asks whether to restart now into `version`; false: later (it installs when the app quits). */
  askRestart(version: string): Promise<boolean>;
  /** Lets the app quit without its own questions (the engine closed cleanly) before installing. */
  beforeRestart(): Promise<void>;
}

export function updateDecision(deps: Pick<AutoUpdateDeps, 'packaged' | 'resourcesPath' | 'env'>): UpdateDecision {
  return decideUpdates({
    envUrl: deps.env.BATCHDESK_UPDATE_URL,
    packaged: deps.packaged,
    builtInFeed: existsSync(join(deps.resourcesPath, 'app-update.yml')),
    platform: process.platform,
    appImage: (deps.env.APPIMAGE ?? '') !== '',
    linuxPackageType: readOrNull(join(deps.resourcesPath, 'package-type')),
  });
}

/** A file's trimmed text; null when it is absent (the AppImage, macOS and Windows have no package-type). */
function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Starts the check when the decision allows one; returns the decision (logged either way). */
export async function startAutoUpdate(deps: AutoUpdateDeps): Promise<UpdateDecision> {
  const decision = updateDecision(deps);
  if (!decision.check) {
    deps.log(decision.message);
    return decision;
  }
  const updater = await loadUpdater();
  updater.logger = { info: (m: unknown) => deps.log(String(m)), warn: (m: unknown) => deps.log(String(m)), error: (m: unknown) => deps.log(String(m)) };
  if (decision.feed !== 'built_in') updater.setFeedURL({ provider: 'generic', url: decision.feed.url });
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.on('update-downloaded', (info: UpdateInfo) => {
    void deps.askRestart(info.version).then(async (now) => {
      if (!now) return;
      await deps.beforeRestart();
      updater.quitAndInstall(false, true);
    });
  });
  updater.on('error', (e: Error) => deps.log(`Update check failed: ${e.message}. Batchdesk looks again at its next start.`));
  deps.log(`Looking for updates at ${decision.feed === 'built_in' ? 'the feed this build was made with' : decision.feed.url}.`);
  void updater
    .checkForUpdates()
    .catch((e: unknown) => deps.log(`Update check failed: ${e instanceof Error ? e.message : String(e)}. Batchdesk looks again at its next start.`));
  return decision;
}

async function loadUpdater(): Promise<AppUpdater> {
  // A CommonJS package: its exports arrive as the default export of the ES module namespace.
  const mod = (await import('electron-updater')) as { autoUpdater?: AppUpdater; default?: { autoUpdater: AppUpdater } };
  const updater = mod.autoUpdater ?? mod.default?.autoUpdater;
  if (!updater) throw new Error('electron-updater has no autoUpdater export');
  return updater;
}
