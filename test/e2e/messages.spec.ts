// A message CSV from a spreadsheet (semicolons, BOM, CRLF, a quoted line break) with one row of
// each problem: every problem is reported with its row number, the preview shows the valid rows,
// and only those are sent.
import { join } from 'node:path';
import { test, expect, openApp, goTo, dropFiles, SAMPLES, shot } from './fixtures';
import { allOf } from './helpers/batch-card';

test('message CSV with bad rows: each problem with its row, the valid rows previewed and sent', async ({ host, sandbox, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Send messages/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [join(SAMPLES, 'messages-with-problems.csv')]);
  await expect(page.getByRole('list', { name: 'Chosen sources' })).toContainText('messages-with-problems.csv');

  const estimate = page.getByRole('region', { name: 'Estimate' });
  const problems = estimate.getByRole('region', { name: /problems?: these items are skipped/ });
  await expect(problems.getByRole('heading')).toHaveText('4 problems: these items are skipped.');
  const items = problems.getByRole('listitem');
  await expect(items).toHaveCount(4);
  // Row numbers count the header as row 1, as a spreadsheet shows them.
  await expect(items.nth(0)).toContainText('messages-with-problems.csv row 3:');
  await expect(items.nth(0)).toContainText(/\+|country code|international/i);
  await expect(items.nth(1)).toContainText('messages-with-problems.csv row 4:');
  await expect(items.nth(1)).toContainText('the "text" column is empty');
  await expect(items.nth(2)).toContainText('messages-with-problems.csv row 5 ');
  await expect(items.nth(2)).toContainText('same recipient');
  await expect(items.nth(2)).toContainText('row 2');
  await expect(items.nth(3)).toContainText('messages-with-problems.csv row 6:');
  await expect(items.nth(3)).toContainText('voucher_code');

  // The preview: the three valid rows, placeholders filled, the quoted line break kept.
  const figure = (term: string) => estimate.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Items')).toHaveText('3');
  await expect(figure('Units')).toHaveText('3 messages');
  await expect(figure('Rate')).toHaveText('€0.0050 per message');
  await expect(figure('Estimated cost')).toHaveText('€0.02');
  await expect(figure('Channel')).toHaveText('WhatsApp');
  const sample = estimate.getByRole('table', { name: 'First rows' });
  const rows = sample.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('+442079460789');
  await expect(rows.nth(0)).toContainText('Hi Amelia, your order A-10301 is ready for pickup.');
  await expect(rows.nth(1)).toContainText('+442079460654');
  await expect(rows.nth(1)).toContainText('Hello Liam; your order A-10305 is delayed by two days.');
  await expect(rows.nth(1)).toContainText('We are sorry for the wait.');
  await expect(rows.nth(2)).toContainText('+12025550178');
  await expect(rows.nth(2)).toContainText('Hi Ava, order A-10306 was delivered today.');
  await expect(sample).not.toContainText('Noah');
  await expect(sample).not.toContainText('voucher');
  await shot(page, 'new-batch-messages-problems', testInfo);

  // Only the valid rows go out.
  await page.getByRole('button', { name: 'Start batch' }).click();
  const card = page.getByRole('article').first();
  await expect(card.locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  await expect(card).toContainText(allOf(3));
  const ledger = await sandbox.admin.ledger();
  expect(ledger.map((d) => d.to).sort()).toEqual(['+12025550178', '+442079460654', '+442079460789']);
  expect(ledger.every((d) => d.channel === 'whatsapp')).toBe(true);
});
