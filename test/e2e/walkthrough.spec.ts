// What a person sees at 1280x800, the window's default size: the first tasks of a shop sending
// notices, a call centre transcribing calls and a budget that runs out, asserted as seen (in the
// viewport, without scrolling), not as present somewhere in the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, dropFiles, shot, RECORDINGS } from './fixtures';

/** How many job rows are whole in the first viewport (inside the grid's own scroller too), without scrolling. */
async function jobRowsInView(page: Page): Promise<number> {
  return page
    .getByRole('grid')
    .locator('[role="row"]')
    .evaluateAll((rows) => {
      const viewport = (globalThis as unknown as { innerHeight: number }).innerHeight;
      const scroller = rows[0]?.closest('[role="grid"]')?.getBoundingClientRect();
      const bottom = Math.min(viewport, scroller?.bottom ?? viewport);
      return rows.slice(1).filter((r) => {
        const b = r.getBoundingClientRect();
        return b.height > 0 && b.top >= 0 && b.bottom <= bottom + 0.5;
      }).length;
    });
}

/** 200 rows of an October notice: 190 good, 6 without a country code, 4 with an empty text; an `order` column of its own. */
function noticeCsv(dir: string): string {
  const lines = ['to,text,name,order'];
  for (let i = 0; i < 200; i++) {
    const to = i % 33 === 5 ? `07700 9${String(i).padStart(5, '0')}` : `+44207946${String(i).padStart(4, '0')}`;
    const text = i % 50 === 7 ? '' : `"Hello {{name}}, your order {{order}} ships in October."`;
    lines.push(`${to},${text},Customer ${i},A-${10000 + i}`);
  }
  const path = join(dir, 'messages.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

test('a shop drops a 200-row CSV: Start and the problems in view, rejected rows back as a file, recipients in the table', async ({
  host,
  page,
  work,
}, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  // The capability is a compact choice: the drop zone and the pickers are in view with it.
  await page.getByRole('radio', { name: /^Send messages/ }).check();
  const drop = page.getByRole('button', { name: 'Drop files or folders here' });
  await expect(drop).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Choose CSV…' })).toBeInViewport();

  await dropFiles(page, drop, [noticeCsv(work)]);
  const estimate = page.getByRole('region', { name: 'Estimate' });
  const figure = (term: string) => estimate.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Items')).toHaveText('190');
  await expect(figure('Problems')).toHaveText('10');
  const start = page.getByRole('button', { name: 'Start batch' });
  await expect(start).toBeInViewport();
  await expect(figure('Problems')).toBeInViewport();

  // Grouped by kind: two causes, a count and one example each, largest first.
  const problems = estimate.getByRole('region', { name: /10 problems: these items are skipped/ });
  const groups = problems.getByRole('listitem');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0)).toContainText('6 items have this problem.');
  await expect(groups.nth(0)).toContainText('messages.csv row 7:');
  await expect(groups.nth(1)).toContainText('4 items have this problem.');
  await expect(groups.nth(1)).toContainText('the "text" column is empty');
  await shot(page, 'walkthrough-new-batch', testInfo);

  // Download rejected rows: exactly the ten refused rows, their own columns and the cause, spreadsheet-safe.
  const download = page.waitForEvent('download');
  await problems.getByRole('button', { name: 'Download rejected rows' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
  // An English OS's spreadsheet: commas (a German one gets ';': german.spec.ts), and the BOM Excel needs.
  expect(lines[0]).toBe('\uFEFFto,text,name,order,problem');
  expect(lines).toHaveLength(11);
  expect(lines.filter((l) => l.includes('no country code') || l.includes('country code'))).toHaveLength(6);
  expect(lines.filter((l) => l.includes('the ""text"" column is empty') || l.includes('"text" column is empty'))).toHaveLength(4);
  // A phone number is written as text ('+44...), never as something a spreadsheet would compute.
  expect(lines.slice(1).every((l) => !/^[=+\-@]/.test(l))).toBe(true);
  await expect(problems.getByRole('status')).toContainText('Saved 10 refused rows as messages-rejected.csv');

  await start.click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  // The batch page: the jobs in the first viewport, by recipient and name, with the CSV's own column.
  const grid = page.getByRole('grid');
  const firstRow = grid.getByRole('row').nth(1);
  await expect(firstRow).toBeInViewport();
  // A compact header: at least 8 job rows in the first viewport.
  await expect.poll(() => jobRowsInView(page)).toBeGreaterThanOrEqual(8);
  await expect(grid.getByRole('columnheader', { name: 'Recipient' })).toBeVisible();
  await expect(grid).toContainText('+442079460000');
  await expect(grid).toContainText('Customer 0');
  await expect(grid.getByRole('columnheader', { name: 'order' })).toBeVisible();
  await expect(grid).toContainText('A-10000');
  await shot(page, 'walkthrough-batch-page', testInfo);
});

test('a call centre runs a pipeline: one row in Batches, its steps inside', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), RECORDINGS);
  const then = page.getByRole('region', { name: 'Then' });
  await then.getByRole('button', { name: 'Add a step' }).click();
  await expect(then.getByLabel('Step 2 option')).toHaveValue('summary');
  const start = page.getByRole('button', { name: 'Start pipeline (2 steps)' });
  await expect(start).toBeInViewport();
  await start.click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  // The batch page: its jobs in the first viewport.
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeInViewport();

  await goTo(page, 'Batches');
  const table = page.getByRole('table', { name: 'Batches' });
  const rows = table.locator('tbody > tr.batch-table__row');
  await expect(rows).toHaveCount(1);
  const steps = rows.first().getByRole('list', { name: 'Steps of this pipeline' }).getByRole('listitem');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(1)).toContainText('Done', { timeout: 30_000 });
  await expect(steps.nth(0)).toContainText('3 of 3 done');
  await expect(rows.first().locator('.status-pill').first()).toHaveText('Done');
  await shot(page, 'walkthrough-batches-pipeline', testInfo);
});

test('a budget runs out: the reason in one line, the raise as a control, no command to type', async ({ host, page, work }, testInfo) => {
  const lines = ['to,text,name'];
  for (let i = 0; i < 20; i++) lines.push(`+44207946${String(i).padStart(4, '0')},Hello {{name}}.,Customer ${i}`);
  const csv = join(work, 'notice.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Send messages/ }).check();
  await page.getByLabel('Files to add').setInputFiles(csv);
  await page.getByLabel('Budget in EUR (optional)').fill('0.03');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);

  await goTo(page, 'Batches');
  const reason = page.getByTestId('pause-reason');
  await expect(reason).toBeVisible({ timeout: 30_000 });
  await expect(reason).toContainText(/The budget of €[\d.]+ is reached: €[\d.]+ spent/);
  // One line: no taller than one line of its text and its padding.
  const box = await reason.boundingBox();
  expect(box?.height ?? 100).toBeLessThan(40);
  await expect(page.locator('main')).not.toContainText('batchdesk ');
  const raise = page.getByRole('button', { name: /^Raise budget to €[\d.]+ and resume$/ });
  await expect(raise).toBeVisible();
  // A paused batch stays a row in Batches: no card opened under it.
  await expect(page.locator('.batch-table__detail')).toHaveCount(0);
  await shot(page, 'walkthrough-batches-paused', testInfo);

  // A paused batch's page shows job rows in the first viewport: its reason and the raise are one line in the header.
  await page
    .getByRole('table', { name: 'Batches' })
    .getByRole('link', { name: /notice/i })
    .first()
    .click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByTestId('pause-reason')).toBeInViewport();
  await expect(raise).toBeInViewport();
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeInViewport();
  // Paused, with the reason and the raise in the header, still at least 8 job rows show.
  await expect.poll(() => jobRowsInView(page)).toBeGreaterThanOrEqual(8);
  await shot(page, 'walkthrough-paused-batch-page', testInfo);
  const line = await page.getByTestId('pause-reason').boundingBox();
  expect(line?.height ?? 100).toBeLessThan(40);
  await goTo(page, 'Batches');
  await raise.click();
  await expect(page.getByRole('table', { name: 'Batches' }).locator('.status-pill').first()).toHaveText('Done', { timeout: 30_000 });
});
