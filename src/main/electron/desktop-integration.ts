// The desktop app's place on the desktop, set up in one call from main.ts: the application menu
// (with Install Command Line Tool…), notifications, taskbar progress, the power-save blocker and
// the tray while sending (desktop-manners-binding.ts), and updates (auto-update.ts). Also the
// --smoke-test run (smoke-test.ts). It talks to the engine only through contract calls and
// pushed events, wherever the engine runs.
import { app, dialog, Menu, type BrowserWindow } from 'electron';
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MethodName } from '../../shared/contract';
import type { DispatchResult } from '../service/dispatch';
import { APP_ID } from './app-id';
import { appMenuTemplate } from './app-menu';
import { startAutoUpdate } from './auto-update';
import { commandLineToolPlan } from './command-line-tool';
import { DesktopMannersBinding } from './desktop-manners-binding';
import { installCommandLineTool } from './install-command-line-tool';
import { runSmokeTest, SMOKE_TEST_FLAG } from './smoke-test';

/** The engine as the desktop shell reaches it: contract calls and pushed events. */
export interface EngineLink {
  call(method: MethodName, arg: unknown): Promise<DispatchResult>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

export interface DesktopSetup {
  win: BrowserWindow;
  engine: EngineLink;
  /** Sends a contract event to the window (app.openBatch). */
  send(event: 'app.openBatch', payload: { id: string; review: boolean }): void;
  /** Quits without asking again, closing the engine first. */
  quit(): void;
  quitting(): boolean;
  /** Closes the engine cleanly before an update restarts the app, so quitting asks nothing. */
  beforeRestart(): Promise<void>;
  log(message: string): void;
}

const here = fileURLToPath(new URL('.', import.meta.url));
/** resources/icons/tray.png of the app (inside app.asar when packaged), with its @2x beside it. */
const TRAY_ICON = join(here, '..', '..', 'resources', 'icons', 'tray.png');

export function isSmokeTest(argv: readonly string[]): boolean {
  return argv.includes(SMOKE_TEST_FLAG);
}

export function setUpDesktop(s: DesktopSetup): { dispose(): void } {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        platform: process.platform,
        appName: app.name,
        installCommandLineTool: () => {
          const plan = commandLineToolPlan({ platform: process.platform, packaged: app.isPackaged, resourcesPath: resourcesPath() });
          void installCommandLineTool(plan, {
            info: (message) => void dialog.showMessageBox(s.win, { type: 'info', message }),
            error: (message, detail) => void dialog.showMessageBox(s.win, { type: 'error', message, detail }),
          });
        },
      }),
    ),
  );

  const manners = new DesktopMannersBinding({
    window: () => (s.win.isDestroyed() ? null : s.win),
    call: (method, arg) => s.engine.call(method, arg),
    openBatch: (id, review) => s.send('app.openBatch', { id, review }),
    quit: s.quit,
    quitting: s.quitting,
    trayIcon: TRAY_ICON,
  });
  manners.attachWindow(s.win);
  const unsubscribe = s.engine.subscribe((event, payload) => manners.onEvent(event, payload));
  void manners
    .seed()
    .catch((e: unknown) => s.log(`Desktop notifications start without what was known at start: ${e instanceof Error ? e.message : String(e)}`));

  void startAutoUpdate({
    packaged: app.isPackaged,
    resourcesPath: resourcesPath(),
    env: process.env,
    log: s.log,
    askRestart: async (version) => {
      const r = await dialog.showMessageBox(s.win, {
        type: 'info',
        message: `Batchdesk ${version} is ready to install.`,
        detail:
          'Restart now to use it: batches sending stop and continue after the restart, and no item is sent twice. Later: it installs when you quit Batchdesk.',
        buttons: ['Restart now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      return r.response === 0;
    },
    beforeRestart: s.beforeRestart,
  }).catch((e: unknown) => s.log(`Updates could not start: ${e instanceof Error ? e.message : String(e)}`));

  return {
    dispose: () => {
      unsubscribe();
      manners.dispose();
    },
  };
}

/** `--smoke-test`: one line and exit 0, or the reason and exit 1 (smoke-test.ts). */
export async function smokeTestAndExit(win: BrowserWindow, closeEngine: () => Promise<void>): Promise<void> {
  const wc = win.webContents;
  const result = await runSmokeTest({
    loaded: () =>
      new Promise<void>((resolve, reject) => {
        wc.once('did-finish-load', () => resolve());
        wc.once('did-fail-load', (_e, code, description, url) => reject(new Error(`${description} (${code}) loading ${url}`)));
        wc.once('render-process-gone', (_e, details) => reject(new Error(`the page's process ended (${details.reason})`)));
      }),
    callInPage: (method) => wc.executeJavaScript(`window.batchdesk.call(${JSON.stringify(method)}, {})`),
  });
  // Written synchronously: app.exit does not wait for a pipe (Windows) to take the line.
  if (result.ok) writeSync(1, `${result.line}\n`);
  else
    writeSync(
      2,
      `Batchdesk smoke test failed: ${result.reason}. Start Batchdesk without ${SMOKE_TEST_FLAG} to see the window; its log is in the data folder's logs/ folder.\n`,
    );
  await closeEngine().catch(() => undefined);
  app.exit(result.ok ? 0 : 1);
}

/** The smoke test cannot run beside a running Batchdesk (one app per data folder): say so and fail. */
export function smokeTestRefused(): void {
  writeSync(2, `Batchdesk smoke test failed: another Batchdesk is running for this user. Quit it, then run ${SMOKE_TEST_FLAG} again.\n`);
  app.exit(1);
}

function resourcesPath(): string {
  // Electron sets it; absent when the bundle runs elsewhere (the tests' stand-in).
  return typeof process.resourcesPath === 'string' ? process.resourcesPath : '';
}
