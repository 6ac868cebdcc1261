// Applies desktop-manners.ts with Electron: OS notifications (a click opens the batch), the
// taskbar/dock progress, the power-save blocker while sending, and the window's close while
// sending (keep sending in the background behind a tray icon, or quit). Fed by the engine's
// pushed events, whichever process the engine runs in.
import { app, dialog, Menu, nativeImage, Notification, powerSaveBlocker, Tray, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { type MethodName } from '../../shared/contract';
import { events, methods } from '../../shared/contract-calls';
import { assertNever } from '../../shared/domain';
import type { DispatchResult } from '../service/dispatch';
import { DesktopManners, type Effect, type Notice } from './desktop-manners';
import { closeChoice, closePrompt, trayView } from './background-sending';

export interface MannersHost {
  window(): BrowserWindow | null;
  /** A contract call, as the window makes it (used for what is known at start). */
  call(method: MethodName, arg: unknown): Promise<DispatchResult>;
  /** Tells the window to open a batch (the contract's app.openBatch event). */
  openBatch(id: string, review: boolean): void;
  /** Quits without asking again (the user chose Quit here). */
  quit(): void;
  /** True once the app is quitting: closing the window then asks nothing. */
  quitting(): boolean;
  /** The tray icon's image file. */
  trayIcon: string;
}

export class DesktopMannersBinding {
  private readonly manners = new DesktopManners();
  private blocker: number | null = null;
  private tray: Tray | null = null;
  /** Shown notifications, kept so their click handlers live until they close. */
  private readonly shown = new Set<Notification>();

  constructor(private readonly host: MannersHost) {}

  /** Reads what is known now, so batches that ended before the app started are not announced. */
  async seed(): Promise<void> {
    const [list, runner] = await Promise.all([this.host.call('batches.list', {}), this.host.call('runner.get', {})]);
    const batches = list.ok ? methods['batches.list'].result.safeParse(list.result) : null;
    const status = runner.ok ? methods['runner.get'].result.safeParse(runner.result) : null;
    this.apply(this.manners.seed(batches?.success ? batches.data : [], status?.success ? status.data : { state: 'idle', reason: null }));
  }

  /** An event the engine pushed (checked against the contract: it may come from another process). */
  onEvent(event: string, payload: unknown): void {
    if (event === 'batches.snapshot') {
      const parsed = events['batches.snapshot'].safeParse(payload);
      if (parsed.success) this.apply(this.manners.snapshot(parsed.data.batches, this.host.window()?.isFocused() ?? false));
    } else if (event === 'runner.changed') {
      const parsed = events['runner.changed'].safeParse(payload);
      if (parsed.success) this.apply(this.manners.runnerChanged(parsed.data));
    }
  }

  /** Closing the window while batches send asks first: keep sending in the background, quit, or stay. */
  attachWindow(win: BrowserWindow): void {
    win.on('close', (e) => {
      const sending = this.manners.sending();
      if (this.host.quitting() || sending === null) return;
      e.preventDefault();
      const prompt = closePrompt(sending);
      const response = dialog.showMessageBoxSync(win, {
        type: 'question',
        message: prompt.message,
        detail: prompt.detail,
        buttons: prompt.buttons,
        defaultId: prompt.defaultId,
        cancelId: prompt.cancelId,
      });
      const choice = closeChoice(prompt, response);
      switch (choice) {
        case 'stay':
          return;
        case 'quit':
          this.host.quit();
          return;
        case 'background':
          win.hide();
          this.showTray();
          return;
        default:
          assertNever(choice, 'close choice');
      }
    });
    // macOS: the dock icon brings a hidden window back.
    app.on('activate', () => this.showWindow());
  }

  dispose(): void {
    if (this.blocker !== null) powerSaveBlocker.stop(this.blocker);
    this.blocker = null;
    this.tray?.destroy();
    this.tray = null;
  }

  private apply(effects: Effect[]): void {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'notify':
          this.notify(effect.notice);
          break;
        case 'progress': {
          const win = this.host.window();
          if (win && !win.isDestroyed()) win.setProgressBar(effect.fraction);
          break;
        }
        case 'keep_awake':
          if (effect.on && this.blocker === null) this.blocker = powerSaveBlocker.start('prevent-app-suspension');
          if (!effect.on && this.blocker !== null) {
            powerSaveBlocker.stop(this.blocker);
            this.blocker = null;
          }
          break;
        default:
          assertNever(effect, 'desktop effect');
      }
    }
    // The tray's line moves with the progress.
    if (this.tray && effects.some((e) => e.kind === 'progress')) this.updateTray();
  }

  private notify(notice: Notice): void {
    if (!Notification.isSupported()) return;
    const n = new Notification({ title: notice.title, body: notice.body });
    this.shown.add(n);
    n.on('click', () => {
      this.showWindow();
      this.host.openBatch(notice.batchId, notice.review);
    });
    n.on('close', () => this.shown.delete(n));
    n.show();
  }

  private showWindow(): void {
    const win = this.host.window();
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    this.tray?.destroy();
    this.tray = null;
  }

  private showTray(): void {
    if (this.tray) return;
    this.tray = new Tray(nativeImage.createFromPath(this.host.trayIcon));
    this.tray.on('click', () => this.showWindow());
    this.updateTray();
  }

  private updateTray(): void {
    const tray = this.tray;
    if (!tray) return;
    const view = trayView(this.manners.sending());
    tray.setToolTip(view.tooltip);
    const template: MenuItemConstructorOptions[] = view.items.map(({ label, action }): MenuItemConstructorOptions => {
      switch (action) {
        case null:
          return { label, enabled: false };
        case 'open':
          return { label, click: () => this.showWindow() };
        case 'quit':
          return { label, click: () => this.host.quit() };
        default:
          return assertNever(action, 'tray action');
      }
    });
    tray.setContextMenu(Menu.buildFromTemplate(template));
  }
}
