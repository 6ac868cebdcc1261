// Invoices are checked: an OCR batch of the four sample invoices, one of which (Marlowe,
// INV-2026-0088) prints a total 10.00 more than net + VAT. The batch says "1 needs review" in the
// Batches table and on its card; the badge opens the job list filtered to it; the row names the
// failed check; the dialog shows the check with its detail and walks only the flagged invoices;
// the invoices export marks it needs_review yes; the e-invoices export zips a UBL file per invoice
// with the EN 16931 report.
import { readFileSync } from 'node:fs';
import { test, expect, openApp, goTo, dropFiles, INVOICES, shot } from './fixtures';
import { csvRecords } from '../helpers/csv';
import { readZip } from '../helpers/zip';
import { allOf, batchCard, statusOf } from './helpers/batch-card';

const NEEDS_ONE = /^1 needs review$/;

test('invoices: checks flag the one to review, filter, dialog, next/previous, export', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await expect(page.getByRole('list', { name: 'Chosen sources' }).getByRole('listitem')).toHaveCount(4);
  await page.getByLabel('Name (optional)').fill('October invoices');
  await page.getByRole('button', { name: 'Start batch' }).click();

  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const batchId = /#\/batches\/([^/]+)$/.exec(page.url())?.[1] ?? '';
  const card = batchCard(page);
  await expect(statusOf(card)).toHaveText('Done', { timeout: 30_000 });
  await expect(card).toContainText(allOf(4));

  // The card: a warning badge with the count, a link to the filtered list.
  const cardBadge = card.getByRole('link', { name: NEEDS_ONE });
  await expect(cardBadge).toBeVisible();
  await expect(cardBadge).toHaveAttribute('href', `#/batches/${batchId}/review`);

  // The Batches table shows it too, and its badge opens the batch filtered to those invoices.
  await goTo(page, 'Batches');
  const row = page.getByTestId(`batch-row-${batchId}`);
  await expect(row.getByRole('link', { name: NEEDS_ONE })).toBeVisible();
  await shot(page, 'invoices-batches-table', testInfo);
  await row.getByRole('link', { name: NEEDS_ONE }).click();
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}/review$`));

  const filter = page.getByRole('checkbox', { name: 'Needs review (1)' });
  await expect(filter).toBeChecked();
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row')).toHaveCount(2); // header + the Marlowe invoice
  const marlowe = grid.getByRole('row').nth(1);
  await expect(marlowe).toContainText('invoice-marlowe-INV-2026-0088.png');
  // The Checks cell names the failed check in words (and says "Needs review" to screen readers).
  await expect(grid.getByRole('columnheader', { name: 'Checks' })).toBeVisible();
  await expect(marlowe.getByRole('gridcell').filter({ hasText: 'Net + VAT is not gross' })).toHaveText(/Needs review: Net \+ VAT is not gross/);
  await expect(page.getByText('1 job match')).toBeVisible();
  await shot(page, 'invoices-batch-needs-review', testInfo);
  await page.getByRole('heading', { level: 2, name: 'Jobs' }).scrollIntoViewIfNeeded();
  await page.getByRole('heading', { level: 2, name: 'Jobs' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'invoices-batch-needs-review-jobs', testInfo);

  // The dialog: "Needs review", the failed check with its detail; next/previous walk the filtered list (one item).
  await marlowe.click();
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}/review/jobs/\\d+$`));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 2 })).toContainText('Needs review');
  const checks = dialog.getByRole('region', { name: 'Invoice checks' });
  await expect(checks.getByRole('heading')).toHaveText(/^Needs review: 1 check failed$/);
  const failed = checks.getByRole('listitem').filter({ hasText: /Net \+ VAT (=|is not) gross/ });
  await expect(failed).toContainText('(failed)');
  await expect(failed.locator('.invoice-check__detail')).toContainText('more');
  await expect(checks.getByRole('listitem').filter({ hasText: '(failed)' })).toHaveCount(1);
  await expect(dialog.getByRole('table', { name: /^Line items/ })).toBeVisible();
  await expect(dialog.getByRole('button', { name: '← Previous' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Next →' })).toBeDisabled();
  // The arrow keys do not leave the filtered list either.
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}/review/jobs/\\d+$`));
  await expect(dialog).toContainText('invoice-marlowe-INV-2026-0088.png');
  await shot(page, 'invoices-dialog-needs-review', testInfo);
  await dialog.getByRole('table', { name: /^Line items/ }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'invoices-dialog-line-items', testInfo);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'invoices-dialog-needs-review-dark', testInfo);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}/review$`));

  // Filter off: all four, the other three passed every check.
  // (The route holds the filter: the box follows the hash change a moment after the click.)
  await filter.click();
  await expect(page.getByRole('checkbox', { name: 'Needs review (1)' })).not.toBeChecked();
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}$`));
  await expect(grid.getByRole('row')).toHaveCount(5);
  await expect(grid.getByRole('row').filter({ hasText: /✓\s*Passed/ })).toHaveCount(3);
  await shot(page, 'invoices-batch-all-jobs', testInfo);
  // Unfiltered, next/previous walk every job again.
  await grid.getByRole('row').filter({ hasText: 'INV-2026-0088' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Invoice checks' })).toBeVisible();
  const previous = dialog.getByRole('button', { name: '← Previous' });
  const next = dialog.getByRole('button', { name: 'Next →' });
  expect((await previous.isEnabled()) || (await next.isEnabled())).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Export "Invoices (CSV, with checks)": the Marlowe row needs review, the others not.
  const batchCardHere = batchCard(page);
  await page.getByLabel('Export format').selectOption({ label: 'Invoices (CSV, with checks)' });
  const [download] = await Promise.all([page.waitForEvent('download'), batchCardHere.getByRole('button', { name: 'Export' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync((await download.path()) ?? '', 'utf8');
  await testInfo.attach('invoices.csv', { body: csv, contentType: 'text/csv' });
  const records = csvRecords(csv);
  expect(records).toHaveLength(4);
  const byNumber = new Map(records.map((r) => [r.invoice_number, r]));
  expect(byNumber.get('INV-2026-0088')?.needs_review).toBe('yes');
  expect(byNumber.get('INV-2026-0088')?.failed_checks).toContain('net_plus_vat');
  for (const n of ['INV-2026-0012', 'INV-2026-0047', 'INV-2026-0103']) expect(byNumber.get(n)?.needs_review, n).toBe('no');

  // Export "E-invoices (UBL) with EN 16931 report": one zip, a UBL file per invoice and the report.
  await page.getByLabel('Export format').selectOption({ label: 'E-invoices (UBL) with EN 16931 report' });
  const [zipDownload] = await Promise.all([page.waitForEvent('download'), batchCardHere.getByRole('button', { name: 'Export' }).click()]);
  expect(zipDownload.suggestedFilename()).toMatch(/-einvoices\.zip$/);
  const entries = await readZip((await zipDownload.path()) ?? '');
  expect([...entries.keys()].sort()).toEqual([
    'en16931-report.csv',
    'invoice-aldenmoor-INV-2026-0012.xml',
    'invoice-copperfinch-INV-2026-0047.xml',
    'invoice-halvorsen-INV-2026-0103.xml',
    'invoice-marlowe-INV-2026-0088.xml',
  ]);
  expect(entries.get('invoice-marlowe-INV-2026-0088.xml')?.toString('utf8')).toContain('INV-2026-0088');
  await expect(batchCardHere.getByTestId('done-note')).toContainText(
    /^Exported 4 e-invoices \(UBL\) with the EN 16931 report as .*-einvoices\.zip\. UBL: \d of 4 pass EN 16931/,
  );
});
