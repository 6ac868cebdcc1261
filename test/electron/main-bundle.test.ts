// Loads the BUILT desktop main bundle (out/main/index.js) with a stand-in electron module and
// checks that every contract method is bound, the window is locked down, and foreign senders,
// navigation, new windows and permission requests are refused.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METHOD_NAMES } from '../../src/shared/contract-calls';

const bundle = join(process.cwd(), 'out', 'main', 'index.js');

interface Report {
  handles: string[];
  windows: { webPreferences: Record<string, unknown> }[];
  privileged: { scheme: string; privileges: Record<string, boolean> }[];
  protocols: string[];
  permission: boolean | null;
  permissionCheck: boolean | null;
  calls: Record<string, { ok: boolean; result?: { transport?: string; supported?: boolean; paths?: string[] }; error?: { code: string; message: string } }>;
  navigation: { external: boolean; internal: boolean };
  windowOpen: { action: string };
  windowOpenFile: { action: string };
  openedExternal?: string;
  loadedUrl: string;
  indexStatus: number;
  indexCsp: string;
  escapeStatus: number;
  singleInstance: boolean;
  quitListener: boolean;
  utilityForks?: { modulePath: string; serviceName: string | null }[];
  engineAlive?: boolean;
  engineEvents?: { state: string; message: string | null }[];
  engineRestarted?: boolean;
  quitPrevented?: boolean;
  engineExitedOnQuit?: number | null;
  quitCalls?: number;
}

function load(): Report {
  const out = join(mkdtempSync(join(tmpdir(), 'batchdesk-standin-')), 'report.json');
  const r = spawnSync(process.execPath, ['--import', join(__dirname, 'register-stand-in.mjs'), bundle], {
    env: { ...process.env, STAND_IN_REPORT: out },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`the main bundle failed to load: ${r.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

describe('built Electron main bundle', () => {
  const report = load();

  it('binds every contract method, and nothing else', () => {
    expect([...report.handles].sort()).toEqual(METHOD_NAMES.map((m) => `bd:${m}`).sort());
  });

  it('creates the window with the secure webPreferences', () => {
    expect(report.windows).toHaveLength(1);
    const wp = report.windows[0]?.webPreferences ?? {};
    expect(wp).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(String(wp.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(report.loadedUrl).toBe('app://batchdesk/index.html');
    expect(report.singleInstance).toBe(true);
    expect(report.quitListener).toBe(true);
  });

  it('serves calls from its own page only, validating arguments', () => {
    expect(report.calls.trusted?.ok).toBe(true);
    expect(report.calls.trusted?.result?.transport).toBe('electron');
    expect(report.calls.foreign).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(report.calls.invalid).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('denies navigation away, new windows and permission requests', () => {
    expect(report.navigation).toEqual({ external: true, internal: false });
    expect(report.windowOpen).toEqual({ action: 'deny' });
    expect(report.windowOpenFile).toEqual({ action: 'deny' });
    expect(report.openedExternal).toBe('https://example.com/docs');
    expect(report.permission).toBe(false);
    expect(report.permissionCheck).toBe(false);
  });

  it('serves its pages over app:// with a strict CSP and nothing outside the renderer', () => {
    expect(report.protocols).toEqual(['app']);
    expect(report.privileged[0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true } });
    expect(report.indexStatus).toBe(200);
    expect(report.indexCsp).toContain("script-src 'self'");
    expect(report.indexCsp).not.toContain('unsafe');
    expect(report.escapeStatus).toBe(404);
  });

  it('answers from the engine in a utility process of its own, restarted when it dies, closed on quit', () => {
    expect(report.utilityForks?.[0]?.modulePath).toMatch(/out[\\/]main[\\/]engine\.js$/);
    expect(report.engineAlive).toBe(true);
    // dialogs.open is answered by the engine, which asks main for Electron's dialog (cancelled here).
    expect(report.calls.dialog).toEqual({ ok: true, result: { supported: true, paths: [] } });
    // Killed: the window is told, a new engine process is started, and calls are answered again.
    expect(report.engineEvents?.map((e) => e.state)).toEqual(['restarting', 'running']);
    expect(report.engineEvents?.[0]?.message).toContain('The engine stopped unexpectedly');
    expect(report.utilityForks).toHaveLength(2);
    expect(report.engineRestarted).toBe(true);
    expect(report.calls.afterKill).toMatchObject({ ok: true, result: { transport: 'electron' } });
    // Quitting while nothing is sent: no dialog, the engine closes cleanly, then the app quits.
    expect(report.quitPrevented).toBe(true);
    expect(report.engineExitedOnQuit).toBe(0);
    expect(report.quitCalls).toBe(1);
  });
});
