// A stand-in for the `electron` module (its binary cannot be downloaded here): records what the
// built main bundle asks of Electron, exercises what it registered, and writes a report.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { fork } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const report = {
  handles: [],
  windows: [],
  privileged: [],
  protocols: [],
  permission: null,
  permissionCheck: null,
  calls: {},
  navigation: {},
  windowOpen: null,
  singleInstance: false,
};
const handlers = new Map();
const userData = mkdtempSync(join(tmpdir(), 'batchdesk-electron-'));
let readyResolve;
const ready = new Promise((r) => (readyResolve = r));
const appListeners = new Map();

export const app = {
  requestSingleInstanceLock: () => ((report.singleInstance = true), true),
  whenReady: () => ready,
  getPath: (name) => (name === 'userData' ? userData : tmpdir()),
  on: (event, fn) => appListeners.set(event, fn),
  quit: () => void (report.quitCalls = (report.quitCalls ?? 0) + 1),
  isPackaged: false,
  name: 'Batchdesk',
  exit: (code) => standIn.exit(code),
};

class WebContents {
  constructor() {
    this.listeners = new Map();
    this.sent = [];
  }
  setWindowOpenHandler(fn) {
    this.windowOpenHandler = fn;
  }
  on(event, fn) {
    this.listeners.set(event, fn);
  }
  send(channel, payload) {
    this.sent.push(channel);
    desktop.sent.push({ channel, payload });
    if (channel === 'bd-event:engine.changed') (report.engineEvents ??= []).push(payload);
  }
  isDestroyed() {
    return false;
  }
}

export class BrowserWindow {
  constructor(options) {
    this.options = options;
    this.webContents = new WebContents();
    report.windows.push(options);
    BrowserWindow.last = this;
  }
  once(event, fn) {
    standIn.listen(this, event, fn, true);
  }
  on(event, fn) {
    standIn.listen(this, event, fn, false);
  }
  show() {
    desktop.window.push('show');
  }
  isMinimized() {
    return false;
  }
  loadURL(url) {
    report.loadedUrl = url;
    setTimeout(process.env.STAND_IN_SCENARIO ? () => standIn.runScenario(process.env.STAND_IN_SCENARIO) : finish, 50);
    return Promise.resolve();
  }
}

export const ipcMain = {
  handle: (channel, fn) => {
    report.handles.push(channel);
    handlers.set(channel, fn);
  },
  removeHandler: (channel) => handlers.delete(channel),
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes) => report.privileged.push(...schemes),
  handle: (scheme, fn) => {
    report.protocols.push(scheme);
    protocol.handler = fn;
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (fn) => (session.permissionRequest = fn),
    setPermissionCheckHandler: (fn) => (session.permissionCheck = fn),
  },
};
export const shell = { openExternal: (url) => ((report.openedExternal = url), Promise.resolve()) };
export const dialog = {
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showMessageBoxSync: (...args) => standIn.answer(args.at(-1)),
  showMessageBox: async (...args) => ({ response: standIn.answer(args.at(-1)), checkboxChecked: false }),
};
export const contextBridge = {};
export const ipcRenderer = {};
export const webUtils = {};

// Electron's utilityProcess emulated with a real Node child: the same module, its messages as
// structured clones over the IPC channel, process.parentPort defined by a preload.
const forks = [];
export const utilityProcess = {
  fork(modulePath, args = [], options = {}) {
    const child = fork(modulePath, args, {
      execArgv: ['--import', new URL('./utility-parent-port.mjs', import.meta.url).href],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: options.env ?? process.env,
    });
    const proc = new EventEmitter();
    proc.pid = child.pid;
    proc.postMessage = (message) => child.send(message);
    proc.kill = () => child.kill();
    child.on('message', (message) => proc.emit('message', message));
    // Electron reports the exit code only.
    child.on('exit', (code, signal) => proc.emit('exit', code ?? (signal ? 128 : 0)));
    (report.utilityForks ??= []).push({ modulePath, serviceName: options.serviceName ?? null });
    forks.push(child);
    return proc;
  },
};

export default { app, BrowserWindow, ipcMain, protocol, session, shell, dialog, utilityProcess };

async function finish() {
  session.permissionRequest?.(null, 'media', (allowed) => (report.permission = allowed));
  report.permissionCheck = session.permissionCheck?.(null, 'notifications') ?? null;
  const info = handlers.get('bd:app.info');
  report.calls.trusted = await info?.({ senderFrame: { url: 'app://batchdesk/index.html' } }, {});
  report.calls.foreign = await info?.({ senderFrame: { url: 'https://evil.example/' } }, {});
  report.calls.invalid = await handlers.get('bd:batches.get')?.({ senderFrame: { url: 'app://batchdesk/index.html' } }, { id: 42, extra: true });
  const wc = BrowserWindow.last.webContents;
  let prevented = false;
  wc.listeners.get('will-navigate')?.({ preventDefault: () => (prevented = true) }, 'https://evil.example/');
  report.navigation.external = prevented;
  prevented = false;
  wc.listeners.get('will-navigate')?.({ preventDefault: () => (prevented = true) }, 'app://batchdesk/index.html#/costs');
  report.navigation.internal = prevented;
  report.windowOpen = wc.windowOpenHandler?.({ url: 'https://example.com/docs' });
  report.windowOpenFile = wc.windowOpenHandler?.({ url: 'file:///etc/passwd' });
  const page = await protocol.handler?.(new Request('app://batchdesk/index.html'));
  report.indexStatus = page?.status;
  report.indexCsp = page?.headers.get('content-security-policy');
  const escape = await protocol.handler?.(new Request('app://batchdesk/..%2f..%2fpackage.json'));
  report.escapeStatus = escape?.status;
  report.quitListener = appListeners.has('before-quit');
  await engineProcessChecks();
  writeFileSync(process.env.STAND_IN_REPORT, JSON.stringify(report));
  process.exit(0);
}

/**
 * The contract served from the engine's utility process: a call that needs main's dialog (asked
 * back by the engine), the engine killed and restarted with the window told, and a quit that
 * closes it.
 */
async function engineProcessChecks() {
  const page = { senderFrame: { url: 'app://batchdesk/index.html' } };
  report.calls.dialog = await handlers.get('bd:dialogs.open')?.(page, { kind: 'files' });
  const engine = forks[0];
  report.engineAlive = engine?.exitCode === null && engine?.signalCode === null;
  if (engine) {
    const gone = once(engine, 'exit');
    engine.kill('SIGKILL');
    await gone;
  }
  report.calls.afterKill = await handlers.get('bd:app.info')?.(page, {});
  report.engineRestarted = forks.length === 2 && forks[1].exitCode === null;
  const quit = appListeners.get('before-quit');
  let prevented = false;
  quit?.({ preventDefault: () => (prevented = true) });
  report.quitPrevented = prevented;
  const latest = forks.at(-1);
  if (latest && latest.exitCode === null) await Promise.race([once(latest, 'exit'), new Promise((r) => setTimeout(r, 20_000))]);
  report.engineExitedOnQuit = latest?.exitCode ?? null;
  // app.quit() is called once the engine has closed (a microtask after its exit).
  await new Promise((r) => setTimeout(r, 50));
}

setTimeout(() => readyResolve(), 10);

// The desktop app's manners (desktop-integration.ts): notifications, tray, menus, progress, the
// power-save blocker and the window's focus, each call recorded in `desktop`. Scenarios other
// than the load-and-check above (STAND_IN_SCENARIO) live in stand-in-scenarios.mjs.
const desktop = {
  window: [],
  progress: [],
  focused: false,
  sent: [],
  notifications: [],
  trays: [],
  menus: [],
  images: [],
  blocker: [],
  messageBoxes: [],
  executed: [],
  exitCode: null,
  userData,
};

export const standIn = {
  report,
  desktop,
  handlers,
  userData,
  appListeners,
  /** The window's and its page's listeners, by event (once-listeners are dropped when fired). */
  listen(target, event, fn, once) {
    target.standInListeners ??= new Map();
    const list = target.standInListeners.get(event) ?? [];
    list.push({ fn, once });
    target.standInListeners.set(event, list);
  },
  emit(target, event, ...args) {
    const list = target.standInListeners?.get(event) ?? [];
    target.standInListeners?.set(
      event,
      list.filter((l) => !l.once),
    );
    for (const l of list) l.fn(...args);
    return list.length;
  },
  /** A message box's answer: the button whose label starts with STAND_IN_ANSWER, else the default. */
  answer(options) {
    desktop.messageBoxes.push({ message: options?.message, detail: options?.detail, buttons: options?.buttons });
    const wanted = process.env.STAND_IN_ANSWER;
    const i = wanted ? (options?.buttons ?? []).findIndex((b) => b.startsWith(wanted)) : -1;
    return i >= 0 ? i : (options?.defaultId ?? 0);
  },
  write() {
    writeFileSync(process.env.STAND_IN_REPORT, JSON.stringify({ ...report, desktop }));
  },
  exit(code) {
    desktop.exitCode = code;
    standIn.write();
    process.exit(code);
  },
  async runScenario(name) {
    const scenarios = await import('./stand-in-scenarios.mjs');
    const run = scenarios[name];
    if (!run) throw new Error(`no stand-in scenario ${name}`);
    await run(standIn, BrowserWindow.last);
  },
};

Object.assign(BrowserWindow.prototype, {
  setProgressBar(fraction) {
    desktop.progress.push(fraction);
  },
  isFocused() {
    return desktop.focused;
  },
  isDestroyed() {
    return false;
  },
  hide() {
    desktop.window.push('hide');
  },
  focus() {
    desktop.window.push('focus');
  },
  restore() {
    desktop.window.push('restore');
  },
});

Object.assign(WebContents.prototype, {
  once(event, fn) {
    standIn.listen(this, event, fn, true);
  },
  /** As the page would run it: `window.batchdesk` is the preload's bridge, whose calls go to ipcMain's handlers. */
  executeJavaScript(code) {
    desktop.executed.push(code);
    const batchdesk = {
      call: (method, arg) =>
        handlers.get(`bd:${method}`)?.({ senderFrame: { url: report.loadedUrl } }, arg) ??
        Promise.resolve({ ok: false, error: { code: 'invalid_argument', message: `Unknown method ${method}.` } }),
    };
    return Promise.resolve(runInNewContext(code, { window: { batchdesk } }));
  },
});

export class Notification {
  static isSupported() {
    return true;
  }
  constructor(options) {
    this.options = options;
    this.shown = false;
    desktop.notifications.push(this);
  }
  on(event, fn) {
    standIn.listen(this, event, fn, false);
  }
  show() {
    this.shown = true;
  }
  toJSON() {
    return { title: this.options.title, body: this.options.body, shown: this.shown };
  }
}

export class Tray {
  constructor(image) {
    this.image = image;
    this.tooltips = [];
    this.menu = null;
    this.destroyed = false;
    desktop.trays.push(this);
  }
  on(event, fn) {
    standIn.listen(this, event, fn, false);
  }
  setToolTip(text) {
    this.tooltips.push(text);
  }
  setContextMenu(menu) {
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
  toJSON() {
    return {
      image: this.image,
      tooltips: this.tooltips,
      menu: this.menu?.template.map((i) => ({ label: i.label, enabled: i.enabled ?? true })),
      destroyed: this.destroyed,
    };
  }
}

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) =>
    desktop.menus.push(
      menu.template.map((m) => ({
        label: m.label ?? null,
        role: m.role ?? null,
        items: Array.isArray(m.submenu) ? m.submenu.map((i) => i.label ?? i.role ?? i.type) : [],
      })),
    ),
};

export const nativeImage = {
  createFromPath: (path) => {
    desktop.images.push(path);
    return { path, isEmpty: () => !existsSync(path) };
  },
};

let blockers = 0;
export const powerSaveBlocker = {
  start: (type) => {
    desktop.blocker.push(`start ${type}`);
    return ++blockers;
  },
  stop: (id) => desktop.blocker.push(`stop ${id}`),
};
