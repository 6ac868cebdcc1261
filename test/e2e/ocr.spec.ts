// The main flow, as a user does it: open the printed URL, New batch, OCR, drop the four sample
// invoices, read the estimate, start, watch the batch finish, open a result beside its source,
// export CSV and check what is in it.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test, expect, openApp, goTo, dropFiles, INVOICES, SAMPLES, shot } from './fixtures';
import { csvRecords, parseCsv } from '../helpers/csv';
import { allOf } from './helpers/batch-card';

test('OCR: drop invoices, see the estimate, start, finish, result beside source, export CSV', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await expect(page.getByRole('heading', { level: 1, name: 'New batch' })).toBeVisible();
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();

  // A real drop of four File objects on the drop zone (uploaded to the host, then previewed).
  const zone = page.getByRole('button', { name: 'Drop files or folders here' });
  await dropFiles(page, zone, INVOICES);

  const sources = page.getByRole('list', { name: 'Chosen sources' });
  await expect(sources.getByRole('listitem')).toHaveCount(4);
  for (const f of ['invoice-aldenmoor-INV-2026-0012.pdf', 'invoice-marlowe-INV-2026-0088.png']) await expect(sources).toContainText(f);

  // The estimate before anything is sent: 4 items, 5 pages (one invoice has 2), €0.0100 a page.
  const estimate = page.getByRole('region', { name: 'Estimate' });
  const figure = (term: string) => estimate.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Items')).toHaveText('4');
  await expect(figure('Units')).toHaveText('5 pages');
  await expect(figure('Rate')).toHaveText('€0.0100 per page');
  await expect(figure('Estimated cost')).toHaveText('€0.05');
  await expect(page.getByLabel('Tier')).toHaveValue('standard');
  await expect(estimate.getByRole('table')).toContainText('invoice-halvorsen-INV-2026-0103.pdf');
  await shot(page, 'new-batch-ocr-estimate', testInfo);

  await page.getByRole('button', { name: 'Start batch' }).click();

  // The batch detail: it runs to done, with 4 of 4 items and the cost measured.
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const card = page.getByRole('article').first();
  await expect(card.locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  await expect(card).toContainText(allOf(4));
  await expect(card).toContainText('5 pages measured of 5 pages estimated');
  await expect(card).toContainText('Spent €0.05');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row')).toHaveCount(5); // header + 4
  // Every row follows the batch to its end (a refetch racing the last update must not leave "Running").
  await expect(grid.getByRole('row').filter({ hasText: 'Succeeded' }), 'job rows follow the batch to done').toHaveCount(4);

  // Open the Aldenmoor invoice: its PDF beside the extracted fields.
  await grid.getByRole('row').filter({ hasText: 'INV-2026-0012' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/#\/batches\/[^/]+\/jobs\/\d+$/);
  const source = dialog.getByRole('region', { name: 'Source' });
  const result = dialog.getByRole('region', { name: 'Result' });
  const pdf = source.locator('iframe[title="Invoice invoice-aldenmoor-INV-2026-0012.pdf"]');
  await expect(pdf).toBeVisible();
  const fields = result.getByRole('table', { name: 'Extracted fields' });
  await expect(fields).toContainText('INV-2026-0012');
  await expect(fields).toContainText('Aldenmoor Office Supply GmbH');
  // Beside, not below: the two panes sit side by side.
  const [s, r] = [await source.boundingBox(), await result.boundingBox()];
  expect(s && r && r.x >= s.x + s.width - 1 && Math.abs(r.y - s.y) < 40).toBe(true);
  // The source the iframe shows is the uploaded file itself, byte for byte.
  const src = await pdf.getAttribute('src');
  const served = await page.request.get(new URL(src ?? '', host.url).toString());
  expect(served.status()).toBe(200);
  expect(Buffer.compare(await served.body(), readFileSync(INVOICES[0] ?? ''))).toBe(0);
  await shot(page, 'job-detail-ocr-pdf', testInfo);
  await dialog.getByRole('button', { name: 'Close job details' }).click();
  await expect(dialog).toBeHidden();

  // The PNG invoice shows as an image.
  await grid.getByRole('row').filter({ hasText: 'INV-2026-0088' }).click();
  const img = dialog.getByRole('img', { name: 'Scanned invoice invoice-marlowe-INV-2026-0088.png' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect(dialog.getByRole('table', { name: 'Extracted fields' })).toContainText('INV-2026-0088');
  await shot(page, 'job-detail-ocr-png', testInfo);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Export CSV: a real download, header + 4 records with the four invoice numbers.
  await expect(page.getByLabel('Export format')).toHaveValue('csv');
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Export' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync((await download.path()) ?? '', 'utf8');
  await testInfo.attach('export.csv', { body: csv, contentType: 'text/csv' });
  expect(parseCsv(csv)).toHaveLength(5);
  const records = csvRecords(csv);
  expect(records.map((r) => r.invoice_number).sort()).toEqual(['INV-2026-0012', 'INV-2026-0047', 'INV-2026-0088', 'INV-2026-0103']);
  expect(records.every((r) => r.state === 'succeeded')).toBe(true);
  expect(records.map((r) => basename(r.source ?? '')).sort()).toEqual(INVOICES.map((f) => basename(f)).sort());
  expect(records.map((r) => Number(r.units)).reduce((a, b) => a + b, 0)).toBe(5);
  expect(records.map((r) => r.cost_eur).sort()).toEqual(['0.0100', '0.0100', '0.0100', '0.0200']);
  expect(new Set(records.map((r) => r.idempotency_key)).size).toBe(4);
  // Said once: by the toast; the line beside the control stays in view but is no live region.
  await expect(page.getByRole('status').filter({ hasText: /^Export saved as .+\.csv\.$/ })).toHaveCount(1);
  await expect(card.getByTestId('done-note')).toContainText('Exported 4 rows');
  await expect(card.getByRole('status').filter({ hasText: 'Exported' })).toHaveCount(0);
});

test('OCR through the file and folder pickers gives the same estimate', async ({ host, page }) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await page.getByLabel('Files to add').setInputFiles(INVOICES);
  await expect(page.getByRole('list', { name: 'Chosen sources' }).getByRole('listitem')).toHaveCount(4);
  const estimate = page.getByRole('region', { name: 'Estimate' });
  await expect(estimate.locator('dd.preview__cost')).toHaveText('€0.05');
  await expect(estimate).toContainText('5 pages');
  // Removing a source updates the estimate.
  await page.getByRole('button', { name: 'Remove invoice-aldenmoor-INV-2026-0012.pdf' }).click();
  await expect(estimate.locator('dd.preview__cost')).toHaveText('€0.04');
  for (const f of ['copperfinch-INV-2026-0047.pdf', 'halvorsen-INV-2026-0103.pdf', 'marlowe-INV-2026-0088.png']) {
    await page.getByRole('button', { name: `Remove invoice-${f}` }).click();
  }
  await expect(page.getByRole('list', { name: 'Chosen sources' })).toHaveCount(0);

  // A whole folder through the folder picker (webkitdirectory): uploaded with its structure, walked by the engine.
  await page.getByLabel('Folder to add').setInputFiles(join(SAMPLES, 'invoices'));
  const sources = page.getByRole('list', { name: 'Chosen sources' });
  await expect(sources.getByRole('listitem')).toHaveCount(1);
  await expect(sources).toContainText('invoices');
  await expect(sources).toContainText('4 files');
  await expect(estimate.locator('dd.preview__cost')).toHaveText('€0.05');
  await expect(estimate).toContainText('5 pages');
});

test('OCR: e-invoices are said to be read here in the estimate, and their XML is shown as text', async ({ host, page }) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  const einvoices = ['xrechnung-brennholt-RE-2026-0311.xml', 'xrechnung-kesselring-RE-2026-0412.xml', 'zugferd-lindqvist-RE-2026-0520.pdf'];
  const scan = INVOICES.find((f) => f.endsWith('.png')) ?? '';
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [...einvoices.map((f) => join(SAMPLES, 'e-invoices', f)), scan]);
  await expect(page.getByRole('list', { name: 'Chosen sources' }).getByRole('listitem')).toHaveCount(4);

  // Why the e-invoices count no pages and cost nothing, beside what the scan takes.
  const estimate = page.getByRole('region', { name: 'Estimate' });
  const split = estimate.getByTestId('read-here');
  await expect(split.getByRole('listitem')).toHaveText(['1 scan for OCR: 1 page, €0.01', '3 e-invoices read on this computer (no OCR, no cost)']);

  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const card = page.getByRole('article').first();
  await expect(card.locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row').filter({ hasText: 'Succeeded' })).toHaveCount(4);

  // The XRechnung's source is its XML as text: the markup is characters on the page, not elements.
  await grid.getByRole('row').filter({ hasText: 'RE-2026-0311' }).click();
  const dialog = page.getByRole('dialog');
  const source = dialog.getByRole('region', { name: 'Source' });
  const xml = source.getByLabel('XML of xrechnung-brennholt-RE-2026-0311.xml');
  await expect(xml).toContainText('<cbc:ID>RE-2026-0311</cbc:ID>');
  expect(await xml.evaluate((el) => el.children.length)).toBe(0);
  await expect(source).not.toContainText('cannot be shown here');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The ZUGFeRD PDF shows as a PDF, with the XML it carries a click away.
  await grid.getByRole('row').filter({ hasText: 'RE-2026-0520' }).click();
  await expect(source.locator('iframe[title="Invoice zugferd-lindqvist-RE-2026-0520.pdf"]')).toBeVisible();
  await source.getByText(/^Show the e-invoice XML it carries/).click();
  await expect(source.locator('pre.job-detail__xml')).toContainText('RE-2026-0520');
});
