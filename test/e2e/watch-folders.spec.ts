// Watch folders in the window (browser host): a folder added by its path, a scan dropped into it
// by the test is taken and processed (the row counts it, its batch finishes), a bad file is listed
// with its reason, and the watch is removed after a confirmation. Screenshots light and dark. A
// scan still being written (a PDF without %%EOF) is listed as not taken yet, with why, until it is.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, openApp, shot, INVOICES } from './fixtures';
import { rpc } from './helpers/processes';

test('watch folders: add, a dropped file processed, a bad one set aside, remove', async ({ host, page, work }, testInfo) => {
  const folder = join(work, 'scans in');
  mkdirSync(folder);
  // A scan and a damaged "PDF", finished elsewhere on the same disk before the folder is watched
  // and moved in below, as a scanner's finished files arrive: a PDF written in the folder itself
  // moments before it is seen waits the long quiet time (30 s), as a scanner may add a page.
  const scanner = join(work, 'scanner out');
  mkdirSync(scanner);
  copyFileSync(INVOICES[0] ?? '', join(scanner, 'scan-0001.pdf'));
  // Whole by its format (it ends in %%EOF, so it is taken), broken inside: set aside.
  writeFileSync(join(scanner, 'scan-0002.pdf'), '%PDF-1.7\nthe scanner gave up here\n%%EOF\n');
  const scannedAt = Date.now();
  await openApp(page, host);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watch folders', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Watch folders' })).toBeVisible();
  await expect(page.getByText('No folder is watched yet.')).toBeVisible();

  const form = page.getByRole('region', { name: 'Watch a folder' });
  // A folder that does not exist is refused with what to do.
  await form.getByLabel('Folder').fill(join(work, 'nowhere'));
  await form.getByRole('button', { name: 'Watch folder' }).click();
  await expect(form.getByRole('alert')).toContainText('does not exist');

  await form.getByLabel('Folder').fill(folder);
  await form.getByLabel('Do with each file').selectOption('ocr');
  await form.getByLabel('Only these extensions').fill('pdf, png');
  await form.getByLabel('Budget per day, EUR (optional)').fill('5');
  // Made more than the quiet time (3 s) before the folder is watched: moved in, not born there.
  await page.waitForTimeout(Math.max(0, scannedAt + 3_500 - Date.now()));
  await form.getByRole('button', { name: 'Watch folder' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Watching ${folder}` })).toBeVisible();
  const row = page.getByTestId('watch-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('rowheader')).toHaveText(folder);
  await expect(row).toContainText('OCR invoices');
  await expect(row).toContainText('pdf, png');

  // The test moves the scan and the damaged "PDF" into the folder, as a scanner or a colleague would.
  for (const name of ['scan-0001.pdf', 'scan-0002.pdf']) renameSync(join(scanner, name), join(folder, name));
  await expect(row.getByTestId('watch-today')).toHaveText('1 file(s)', { timeout: 20_000 });
  await expect(row.getByTestId('watch-last')).toContainText('scan-0001.pdf');
  await expect(row.getByTestId('watch-problems')).toContainText('1 set aside', { timeout: 20_000 });
  await row.getByTestId('watch-problems').getByText('1 set aside').click();
  await expect(row.getByTestId('watch-problems')).toContainText(/scan-0002\.pdf: .*Set aside as \.batchdesk-set-aside\/scan-0002\.pdf/);
  expect(existsSync(join(folder, '.batchdesk-set-aside', 'scan-0002.pdf'))).toBe(true);

  // The day's batch is sent and finishes with the scan as its one item.
  const watches = await rpc<{ todayBatch: string | null }[]>(host, 'watch.list');
  const batchId = watches[0]?.todayBatch ?? '';
  expect(batchId).not.toBe('');
  await expect
    .poll(async () => (await rpc<{ status: string; total: number }>(host, 'batches.get', { id: batchId })).status, { timeout: 30_000 })
    .toMatch(/^done/);
  const batch = await rpc<{ name: string; total: number; cost: { budget: number | null } }>(host, 'batches.get', { id: batchId });
  expect(batch.name).toMatch(/^scans in \d{4}-\d{2}-\d{2}$/);
  expect(batch.total).toBe(1);
  expect(batch.cost.budget).toBe(50_000);

  // Light and dark, each without serious accessibility problems (axe, as screens.spec does).
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot(page, `watch-folders-${scheme}`, testInfo);
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`),
      scheme,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Today's count links to the batch.
  await expect(row.getByRole('link', { name: '1 file(s)' })).toHaveAttribute('href', `#/batches/${batchId}`);

  // Remove, after a confirmation that can be declined.
  await row.getByRole('button', { name: `Remove ${folder}` }).click();
  const dialog = page.getByRole('dialog', { name: `Stop watching ${folder}?` });
  await dialog.getByRole('button', { name: 'Keep watching' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Remove ${folder}` }).click();
  await dialog.getByRole('button', { name: 'Yes, stop watching' }).click();
  await expect(page.getByText('No folder is watched yet.')).toBeVisible();
  await expect(page.getByRole('status')).toContainText(`No longer watching ${folder}`);
  // A file dropped now is left alone.
  copyFileSync(INVOICES[1] ?? '', join(folder, 'scan-0003.pdf'));
  await page.waitForTimeout(5_000);
  expect((await rpc<unknown[]>(host, 'watch.list')).length).toBe(0);
  const after = await rpc<{ total: number }>(host, 'batches.get', { id: batchId });
  expect(after.total).toBe(1);
});

test('watch folders: a scan still being written is listed as not taken yet, until it is', async ({ launch, sandbox, page, work }) => {
  // Files settle after 0.2 s, so the quiet time after which an incomplete file is said is 2 s.
  const host = await launch({ env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey }, settle: 0.2 });
  const folder = join(work, 'scanner');
  mkdirSync(folder);
  await rpc(host, 'watch.add', { dir: folder, capability: 'ocr' });
  await openApp(page, host);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watch folders', exact: true }).click();
  const row = page.getByTestId('watch-row');
  await expect(row).toHaveCount(1);

  // The scanner has written half of the pages: no %%EOF at the end yet.
  const pdf = readFileSync(INVOICES[0] ?? '');
  const half = Math.floor(pdf.lastIndexOf('%%EOF') * 0.5);
  const scan = join(folder, 'scan-0001.pdf');
  writeFileSync(scan, pdf.subarray(0, half));
  const waiting = row.getByTestId('watch-waiting');
  await expect(waiting).toContainText('1 file not taken yet', { timeout: 30_000 });
  await expect(waiting).toContainText('scan-0001.pdf is not taken yet: its PDF has no end marker yet');
  await expect(row.getByTestId('watch-today')).toHaveText('0 file(s)');

  // The rest written: taken, and the note goes.
  appendFileSync(scan, pdf.subarray(half));
  await expect(row.getByTestId('watch-today')).toHaveText('1 file(s)', { timeout: 30_000 });
  await expect(waiting).toHaveCount(0);
  await expect(row.getByTestId('watch-problems')).toHaveText('none');
});
