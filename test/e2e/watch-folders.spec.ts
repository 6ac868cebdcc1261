// Watch folders in the window (browser host): a folder added by its path, a scan dropped into it
// by the test is taken and processed (the row counts it, its batch finishes), a bad file is listed
// with its reason, and the watch is removed after a confirmation. Screenshots light and dark.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, openApp, shot, INVOICES } from './fixtures';
import { rpc } from './helpers/processes';

test('watch folders: add, a dropped file processed, a bad one set aside, remove', async ({ host, page, work }, testInfo) => {
  const folder = join(work, 'scans in');
  mkdirSync(folder);
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
  await form.getByRole('button', { name: 'Watch folder' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Watching ${folder}` })).toBeVisible();
  const row = page.getByTestId('watch-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('rowheader')).toHaveText(folder);
  await expect(row).toContainText('OCR invoices');
  await expect(row).toContainText('pdf, png');

  // The test drops a scan and a damaged "PDF" into the folder, as a scanner or a colleague would.
  copyFileSync(INVOICES[0] ?? '', join(folder, 'scan-0001.pdf'));
  // Whole by its format (it ends in %%EOF, so it is taken), broken inside: set aside.
  writeFileSync(join(folder, 'scan-0002.pdf'), '%PDF-1.7\nthe scanner gave up here\n%%EOF\n');
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
