// The desktop shell: the only code that imports electron. One secure window on the same engine
// the command line and the browser host use.
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../service/app-service';
import { KeychainStore } from '../engine/secrets/secret-store';
import { bindIpc } from './ipc';
import { appProtocolHandler } from './app-protocol';
import { APP_ORIGIN, secureWebPreferences, vettedExternalUrl } from './secure-window';
import { isSmokeTest, setUpDesktop, smokeTestAndExit, smokeTestRefused } from './desktop-integration';
import { eventChannel } from './ipc';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'renderer');

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

let win: BrowserWindow | null = null;
let service: AppService | null = null;
let quitConfirmed = false;
/** `--smoke-test`: the window stays hidden, one call, one line, exit (desktop-integration.ts). */
const smoke = isSmokeTest(process.argv);

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    title: 'Batchdesk',
    show: false,
    webPreferences: secureWebPreferences(join(here, '..', 'preload', 'index.cjs')),
  });
  w.once('ready-to-show', () => !smoke && w.show());
  w.webContents.setWindowOpenHandler(({ url }) => {
    const safe = vettedExternalUrl(url);
    if (safe) void shell.openExternal(safe);
    return { action: 'deny' };
  });
  w.webContents.on('will-navigate', (e, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) e.preventDefault();
  });
  w.webContents.on('will-attach-webview', (e) => e.preventDefault());
  void w.loadURL(`${APP_ORIGIN}/index.html`);
  return w;
}

async function openDialog(kind: 'files' | 'folder' | 'csv'): Promise<{ supported: boolean; paths: string[] }> {
  const options: Electron.OpenDialogOptions =
    kind === 'folder'
      ? { properties: ['openDirectory', 'multiSelections'] }
      : kind === 'csv'
        ? { properties: ['openFile'], filters: [{ name: 'CSV', extensions: ['csv', 'tsv', 'txt'] }] }
        : { properties: ['openFile', 'multiSelections'] };
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return { supported: true, paths: r.canceled ? [] : r.filePaths };
}

/** "Save results to folder...": a folder to write into (one may be created in the dialog), or null. */
async function chooseFolder(title: string): Promise<string | null> {
  const options: Electron.OpenDialogOptions = { title, buttonLabel: 'Save here', properties: ['openDirectory', 'createDirectory', 'promptToCreate'] };
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

if (!app.requestSingleInstanceLock()) {
  if (smoke) smokeTestRefused();
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    service = new AppService({
      dataDir: app.getPath('userData'),
      secrets: new KeychainStore(),
      transport: 'electron',
      apiUrl: process.env.BATCHDESK_API_URL ?? null,
      openDialog,
      chooseFolder,
      showInFolder: (path) => shell.showItemInFolder(path),
    });
    protocol.handle('app', appProtocolHandler(service, rendererDir));
    bindIpc(ipcMain, service, () => win?.webContents ?? null);
    win = createWindow();
    win.on('closed', () => (win = null));
    if (smoke) {
      const s = service;
      void smokeTestAndExit(win, () => s.close());
      return;
    }
    const engine = service;
    setUpDesktop({
      win,
      engine,
      send: (event, payload) => win?.webContents.send(eventChannel(event), payload),
      quit: () => {
        quitConfirmed = true;
        void engine.close().finally(() => app.quit());
      },
      quitting: () => quitConfirmed,
      beforeRestart: async () => {
        quitConfirmed = true;
        await engine.close();
      },
      log: (message) => engine.engine.logger.log('info', 'desktop', { message }),
    });
    // Unfinished batches continue where they stopped.
    service.start();
  });

  // A running batch keeps the app from quitting silently.
  app.on('before-quit', (e) => {
    if (quitConfirmed || !service) return;
    e.preventDefault();
    const busy = service.runs.busy;
    const choice = busy
      ? dialog.showMessageBoxSync({
          type: 'question',
          buttons: ['Keep running', 'Quit'],
          defaultId: 0,
          cancelId: 0,
          message: 'Batches are still sending.',
          detail: 'Quit now and they stop; they continue where they stopped the next time Batchdesk starts, and no item is sent twice.',
        })
      : 1;
    if (choice !== 1) return;
    quitConfirmed = true;
    const s = service;
    void s.close().finally(() => app.quit());
  });

  app.on('window-all-closed', () => app.quit());
}
