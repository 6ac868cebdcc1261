// The job table at 100,000 rows: the page keeps only a window of rows in the DOM, reaches the last
// row, and search narrows the set. The batch is paused right after creation so little is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openApp, shot } from './fixtures';
import { createBatch, rpc } from './helpers/processes';

const ROWS = 100_000;

test('a 100,000-row batch: virtualized table, end of list, search', async ({ host, page, work }, testInfo) => {
  test.setTimeout(180_000);
  // Distinct rows: the reserved numbers repeat every 1,000 but the text does not.
  const csv = join(work, 'big.csv');
  const lines = ['to,text'];
  for (let i = 0; i < ROWS; i++) lines.push(`+44207946${String(i % 1000).padStart(4, '0')},Hello your code is ${1000 + i}.`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const id = await createBatch(host, 'channel', [csv], { name: 'Big batch' });
  await rpc(host, 'batches.pause', { id });

  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${id}`);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 30_000 });
  await expect(grid.getByRole('row').nth(1)).toContainText('big.csv row 2');

  // Only a window of rows exists in the page, not 100,000.
  const rendered = await grid.getByRole('row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(120);

  // Keyboard to the end: the last job is there, and still only a window is rendered.
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('End');
  await expect(grid.locator(`[aria-rowindex="${ROWS + 1}"]`)).toContainText(`big.csv row ${ROWS + 1}`, { timeout: 15_000 });
  expect(await grid.getByRole('row').count()).toBeLessThan(120);
  await shot(page, 'batch-detail-100k-end', testInfo);

  await page.getByLabel('Search jobs').fill('your code is 100999.');
  await expect(page.getByText(/^1 job\b/)).toBeVisible({ timeout: 15_000 });
  await expect(grid.locator('[aria-rowindex="2"]')).toContainText(`big.csv row ${99_999 + 2}`);
});
