// The desktop shell: the only code that imports electron. One secure window on the same engine
// the command line and the browser host use; the engine runs in a utilityProcess of its own, so
// this process only creates windows and routes the contract.
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineClient } from '../service/engine-process/engine-client';
import { readerThread } from '../service/reader/reader-client';
import { utilityEngine } from './engine-process';
import { bindIpc } from './ipc';
import { appProtocolHandler } from './app-protocol';
import { APP_ORIGIN, secureWebPreferences, vettedExternalUrl } from './secure-window';
import { isSmokeTest, setUpDesktop, smokeTestAndExit, smokeTestRefused } from './desktop-integration';
import { eventChannel } from './ipc';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'renderer');

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

let win: BrowserWindow | null = null;
let engine: EngineClient | null = null;
let quitConfirmed = false;
/** `--smoke-test`: the window stays hidden, one call, one line, exit (desktop-integration.ts). */
const smoke = isSmokeTest(process.argv);
/** The engine is being asked whether it is sending: a second quit meanwhile waits for that answer. */
let quitAsking = false;

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
    engine = new EngineClient(
      utilityEngine(join(here, 'engine.js')),
      {
        dataDir: app.getPath('userData'),
        transport: 'electron',
        apiUrl: process.env.BATCHDESK_API_URL ?? null,
        storeUrl: null,
      },
      { openDialog, chooseFolder, showInFolder: (path) => shell.showItemInFolder(path) },
      // The window's reads from a thread of main over the database opened read-only (service/reader).
      { reader: readerThread(join(here, 'reader.js')) },
    );
    // The data folder could not be opened (damaged, from a newer version): say why and quit.
    engine.ready().catch((e: unknown) => {
      dialog.showErrorBox('Batchdesk could not start', e instanceof Error ? e.message : String(e));
      quitConfirmed = true;
      app.quit();
    });
    protocol.handle('app', appProtocolHandler(engine, rendererDir));
    bindIpc(ipcMain, engine, () => win?.webContents ?? null);
    win = createWindow();
    win.on('closed', () => (win = null));
    const link = engine;
    if (smoke) {
      void smokeTestAndExit(win, () => link.close());
      return;
    }
    setUpDesktop({
      win,
      engine: link,
      send: (event, payload) => win?.webContents.send(eventChannel(event), payload),
      quit: () => {
        quitConfirmed = true;
        void link.close().finally(() => app.quit());
      },
      quitting: () => quitConfirmed,
      beforeRestart: async () => {
        quitConfirmed = true;
        await link.close();
      },
      // Into the engine's log, in the data folder, as the rest of what happens.
      // (once it is up: what is said before it has started would be dropped).
      log: (message) =>
        void link.ready().then(
          () => link.log('info', 'desktop', { message }),
          () => undefined,
        ),
    });
    // Unfinished batches continue where they stopped (once the engine is up).
    link.start();
  });

  // A running batch keeps the app from quitting silently.
  app.on('before-quit', (e) => {
    if (quitConfirmed || !engine) return;
    e.preventDefault();
    if (quitAsking) return;
    quitAsking = true;
    const s = engine;
    // Asked of the engine's process; one that cannot answer is not sending anything.
    void s
      .busy()
      .catch(() => false)
      .then((busy) => {
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
        quitAsking = false;
        if (choice !== 1) return;
        quitConfirmed = true;
        void s.close().finally(() => app.quit());
      });
  });

  app.on('window-all-closed', () => app.quit());
}
