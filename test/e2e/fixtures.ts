// Playwright fixtures: every test gets its own sandbox API process, a fresh data folder and a
// browser host on it (keys by environment unless the test starts its own host without them),
// all stopped afterwards. Helpers for what a user does: open the printed URL, drop files.
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PageWindow } from './helpers/page-globals';
import { assertBuilt, startHost, startSandbox, tempDir, type Host, type HostOptions, type Sandbox } from './helpers/processes';

export { expect };

export const SAMPLES = join(process.cwd(), 'resources', 'samples');
export const INVOICES = [
  'invoice-aldenmoor-INV-2026-0012.pdf',
  'invoice-copperfinch-INV-2026-0047.pdf',
  'invoice-halvorsen-INV-2026-0103.pdf',
  'invoice-marlowe-INV-2026-0088.png',
].map((f) => join(SAMPLES, 'invoices', f));
export const RECORDINGS = ['call-001-double-charge.wav', 'call-002-late-parcel.wav', 'call-003-cancel-plan.wav'].map((f) => join(SAMPLES, 'recordings', f));
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

interface Fixtures {
  sandbox: Sandbox;
  /** A temp folder for this test (data folders, generated CSVs); removed afterwards. */
  work: string;
  /** Starts hosts that are closed after the test (a test may restart one on the same data folder). */
  launch: (opts?: Partial<HostOptions>) => Promise<Host>;
  /** A host on `work/data` against the sandbox, with the sandbox's keys by environment. */
  host: Host;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  sandbox: async ({}, use) => {
    assertBuilt();
    const sb = await startSandbox();
    await use(sb);
    await sb.close();
  },
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const dir = tempDir('batchdesk-e2e-');
    await use(dir.path);
    dir.cleanup();
  },
  launch: async ({ sandbox, work }, use) => {
    const started: Host[] = [];
    await use(async (opts = {}) => {
      const h = await startHost({ dataDir: join(work, 'data'), apiUrl: sandbox.url, ...opts });
      started.push(h);
      return h;
    });
    for (const h of started) await h.close();
  },
  host: async ({ sandbox, launch }, use) => {
    await use(await launch({ env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey } }));
  },
});

/** Opens the URL the host printed, as the user does; the token becomes a cookie. */
export async function openApp(page: Page, host: Host): Promise<void> {
  await page.goto(host.openUrl);
  await expect(page).toHaveURL(new RegExp(`^${host.url}/`));
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

export async function goTo(page: Page, link: 'Batches' | 'New batch' | 'Costs' | 'Keys & rates'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
}

/** Saves test-results/screenshots/<name>.png (full page) and attaches it to the report. */
export async function shot(page: Page, name: string, testInfo?: TestInfo): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
  if (testInfo) await testInfo.attach(name, { path, contentType: 'image/png' });
  return path;
}

const MIME: Record<string, string> = { '.pdf': 'application/pdf', '.png': 'image/png', '.wav': 'audio/wav', '.csv': 'text/csv', '.txt': 'text/plain' };
const mimeOf = (p: string): string => MIME[p.slice(p.lastIndexOf('.')).toLowerCase()] ?? 'application/octet-stream';

/**
 * A real drop: a DataTransfer built in the page holding File objects with the files' bytes,
 * dispatched as dragenter, dragover and drop on the target (as a drag from the desktop does).
 */
export async function dropFiles(page: Page, target: Locator, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({ name: basename(p), type: mimeOf(p), b64: readFileSync(p).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const w = globalThis as unknown as PageWindow;
    const dt = new w.DataTransfer();
    for (const f of list) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

/** A channel CSV of `rows` distinct recipients (reserved test ranges), written into `dir`. */
export function messagesCsv(dir: string, rows: number, name = `messages-${rows}.csv`): string {
  const lines = ['to,text,name'];
  for (let i = 0; i < rows; i++) lines.push(`+44207946${String(i).padStart(4, '0')},"Hello {{name}}, your code is ${1000 + i}.",Customer ${i}`);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Every delivery exactly once: as many deliveries as rows, unique idempotency keys and recipients. */
export function expectExactlyOnce(ledger: { idempotency_key: string | null; to: string }[], rows: number): void {
  expect(ledger).toHaveLength(rows);
  expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(rows);
  expect(ledger.every((d) => d.idempotency_key !== null)).toBe(true);
  expect(new Set(ledger.map((d) => d.to)).size).toBe(rows);
}
