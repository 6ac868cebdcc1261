// Runs the BUILT desktop main bundle (out/main/index.js) with the Electron stand-in and watches it
// behave as a desktop app: `--smoke-test` (one call the window's way, one line, exit code), and,
// with the window out of focus, a batch sent through the real engine to a sandbox slowed down so
// the sending can be seen: taskbar progress set then cleared, the power-save blocker started then
// stopped, the close while sending offering the background (tray), the notification when it
// finished, and its click opening the batch in the window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';

const bundle = join(process.cwd(), 'out', 'main', 'index.js');

interface Desktop {
  window: string[];
  progress: number[];
  sent: { channel: string; payload: unknown }[];
  notifications: { title: string; body: string; shown: boolean }[];
  trays: { image: { path: string }; tooltips: string[]; menu: { label: string; enabled: boolean }[]; destroyed: boolean }[];
  menus: { label: string | null; role: string | null; items: string[] }[][];
  images: string[];
  blocker: string[];
  messageBoxes: { message: string; detail: string; buttons: string[] }[];
  executed: string[];
  exitCode: number | null;
  userData: string;
  failure?: string;
  batchId?: string;
  closePrevented?: boolean;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  desktop: Desktop;
}

function runBundle(scenario: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const out = join(mkdtempSync(join(tmpdir(), 'batchdesk-manners-')), 'report.json');
  const child = spawn(process.execPath, ['--import', join(__dirname, 'register-stand-in.mjs'), bundle, ...args], {
    env: { ...process.env, STAND_IN_REPORT: out, STAND_IN_SCENARIO: scenario, BATCHDESK_UPDATE_URL: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!existsSync(out)) return reject(new Error(`the bundle wrote no report (exit ${code}): ${stderr}`));
      const report = JSON.parse(readFileSync(out, 'utf8')) as { desktop: Desktop };
      resolve({ code, stdout, stderr, desktop: report.desktop });
    });
  });
}

describe('--smoke-test (built bundle, Electron stand-in)', () => {
  it('loads the window hidden, calls app.info through the page, prints one line and exits 0', async () => {
    const r = await runBundle('smoke', ['--smoke-test']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Batchdesk \d+\.\d+\.\d+ smoke test passed: the window loaded and answered app\.info over electron; data folder \S+\n$/);
    expect(r.desktop.executed).toEqual(['window.batchdesk.call("app.info", {})']);
    // Hidden: ready-to-show came, and nothing showed the window.
    expect(r.desktop.window).not.toContain('show');
    // A smoke test does not set up the desktop (no menu, no tray, no update check).
    expect(r.desktop.menus).toEqual([]);
  });

  it('exits 1 with the reason when the page does not load', async () => {
    const r = await runBundle('smokeFailLoad', ['--smoke-test']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Batchdesk smoke test failed: the window did not load: ERR_FILE_NOT_FOUND (-6) loading app://batchdesk/index.html.');
    expect(r.stderr).toContain('Start Batchdesk without --smoke-test to see the window');
  });
});

describe('desktop manners (built bundle, Electron stand-in, real engine and sandbox)', () => {
  let sb: SandboxHandle;
  let run: Run;

  beforeAll(async () => {
    sb = await startSandbox({});
    // Slow answers: the sending lasts long enough to be seen in coalesced snapshots (every 250 ms).
    await new SandboxAdmin(sb.url, sb.adminToken).setFaults({ latency_ms: 150 });
    run = await runBundle('manners', [], {
      BATCHDESK_API_URL: sb.url,
      BATCHDESK_API_KEY: sb.apiKey,
      STAND_IN_ANSWER: 'Keep sending in the background',
      STAND_IN_ITEMS: '40',
    });
  }, 120_000);

  afterAll(async () => {
    await sb?.close();
  });

  it('ran the scenario to its end', () => {
    expect(run.desktop.failure).toBeUndefined();
    expect(run.code).toBe(0);
  });

  it('sets the taskbar progress while sending and clears it when done', () => {
    const p = run.desktop.progress;
    expect(p.some((f) => f > 0 && f < 1)).toBe(true);
    expect(p.at(-1)).toBe(-1);
    // It only grows while one batch sends.
    const sending = p.filter((f) => f >= 0);
    expect([...sending].sort((a, b) => a - b)).toEqual(sending);
  });

  it('keeps the app from being suspended while sending, and lets go after', () => {
    expect(run.desktop.blocker).toEqual(['start prevent-app-suspension', 'stop 1']);
  });

  it('offers to keep sending in the background when the window is closed while sending', () => {
    expect(run.desktop.closePrevented).toBe(true);
    const box = run.desktop.messageBoxes[0];
    expect(box?.message).toMatch(/^Sending 1 batch: \d+% \(\d+ of 40 items\)\.$/);
    expect(box?.buttons).toEqual(['Keep sending in the background', 'Quit', 'Cancel']);
    expect(run.desktop.window).toContain('hide');
    const tray = run.desktop.trays[0];
    expect(tray?.image.path).toMatch(/resources[\\/]icons[\\/]tray\.png$/);
    expect(existsSync(tray?.image.path ?? '')).toBe(true);
    expect(tray?.tooltips[0]).toMatch(/^Batchdesk: sending 1 batch: \d+%/);
    expect(tray?.tooltips.at(-1)).toBe('Batchdesk: nothing is sending');
    expect(tray?.menu.map((i) => i.label)).toEqual(['Nothing is sending', 'Open Batchdesk', 'Quit']);
    expect(tray?.menu[0]?.enabled).toBe(false);
  });

  it('notifies when the batch finishes, and the click shows the window on that batch', () => {
    const shown = run.desktop.notifications.filter((n) => n.shown);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.title).toBe('Finished: Stand-in batch');
    expect(shown[0]?.body).toMatch(/^40 succeeded; €\d+\.\d\d spent\.$/);
    const open = run.desktop.sent.find((s) => s.channel === 'bd-event:app.openBatch');
    expect(open?.payload).toEqual({ id: run.desktop.batchId, review: false });
    expect(run.desktop.window.slice(run.desktop.window.indexOf('hide'))).toEqual(['hide', 'show', 'focus']);
    // Back in the window, the tray icon goes.
    expect(run.desktop.trays[0]?.destroyed).toBe(true);
  });

  it('sets a menu with Install Command Line Tool… where the app must install it itself', () => {
    const menu = run.desktop.menus[0] ?? [];
    const first = menu[0];
    if (process.platform === 'darwin') expect(first?.items).toContain('Install Command Line Tool…');
    else if (process.platform === 'win32') expect(first?.items[0]).toBe('Install Command Line Tool…');
    else expect(first).toEqual({ label: 'File', role: null, items: ['quit'] });
    expect(menu.slice(1).map((m) => m.role)).toEqual(['editMenu', 'viewMenu', 'windowMenu']);
  });

  it('does not look for updates without a feed', () => {
    const log = readFileSync(join(run.desktop.userData, 'logs', 'batchdesk.log'), 'utf8');
    expect(log).toContain('Updates are off: no update feed is set');
  });
});
