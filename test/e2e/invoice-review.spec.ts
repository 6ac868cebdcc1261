// A review that ends: the Marlowe sample prints a gross 10.00 over net + VAT. In the job dialog the
// user corrects the gross, sees the check turn green as they type, accepts, and the batch's line
// changes from "1 needs review" to "1 accepted after review" while the Needs review queue empties.
import { join } from 'node:path';
import { test, expect, openApp, goTo, dropFiles, INVOICES, SAMPLES, shot } from './fixtures';
import { batchCard, statusOf } from './helpers/batch-card';
import { createBatch, waitForBatch } from './helpers/processes';

test('invoice review: edit a field, the check turns green, accept, the batch counts it', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await expect(page.getByRole('list', { name: 'Chosen sources' }).getByRole('listitem')).toHaveCount(4);
  await page.getByLabel('Name (optional)').fill('Invoices to review');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const batchId = /#\/batches\/([^/]+)$/.exec(page.url())?.[1] ?? '';
  await expect(statusOf(batchCard(page))).toHaveText('Done', { timeout: 30_000 });

  const counts = page.getByTestId('review-counts');
  await expect(counts).toHaveText('4 invoices: 3 passed, 1 needs review');

  // The Needs review queue: the Marlowe invoice.
  // The filter is the URL's: its box is checked once the navigation it starts has rendered, so
  // click, then wait for that (check() asserts at once and lost that race on a loaded machine).
  const needsReview = page.getByRole('checkbox', { name: 'Needs review (1)' });
  await needsReview.click();
  await expect(needsReview).toBeChecked();
  await expect(page).toHaveURL(new RegExp(`#/batches/${batchId}/review$`));
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row')).toHaveCount(2);
  await grid.getByRole('row').nth(1).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();

  const checks = dialog.getByRole('region', { name: 'Invoice checks' });
  const sum = checks.getByRole('listitem').filter({ hasText: /Net \+ VAT (=|is not) gross/ });
  await expect(sum).toContainText('(failed)');
  await expect(checks.getByRole('heading')).toHaveText('Needs review: 1 check failed');

  // A value that is not an amount is marked, and nothing can be saved.
  const review = dialog.getByRole('region', { name: 'Invoice review' });
  const gross = review.getByRole('textbox', { name: 'Gross', exact: true });
  await gross.fill('769,2x');
  await expect(review.getByRole('alert').first()).toContainText('is not an amount');
  await expect(review.getByRole('button', { name: 'Accept' })).toBeDisabled();

  // The right total: the check turns green as it is typed, before anything is saved.
  await gross.fill('769.20');
  await expect(sum).toContainText('(passed)');
  await expect(sum).toHaveClass(/invoice-check--ok/);
  await expect(checks.getByRole('heading')).toHaveText('Checks passed');
  await expect(review).toContainText('read: 779.20');
  await shot(page, 'invoice-review-corrected', testInfo);

  await review.getByRole('button', { name: 'Accept' }).click();
  await expect(review.getByRole('status')).toContainText(/^Accepted by \S+/);
  await expect(dialog.getByRole('heading', { level: 2 })).not.toContainText('Needs review');
  await shot(page, 'invoice-review-accepted', testInfo);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The batch counts it, and the queue is empty.
  await expect(counts).toHaveText('4 invoices: 3 passed, 1 accepted after review');
  await expect(page.getByRole('checkbox', { name: 'Needs review (0)' })).toBeVisible();
  await expect(grid.getByRole('row')).toHaveCount(1);
  await shot(page, 'invoice-review-batch', testInfo);
});

// The supplier memory: a review of Marlowe's invoice that corrects its IBAN teaches the supplier's
// IBAN; Marlowe's next invoice (a later batch) shows it beside the IBAN field, marked with the job
// it was learnt from, and the field changes only when Apply is pressed.
test('invoice review: a corrected IBAN is suggested on the supplier’s next invoice, applied only on click', async ({ host, page }, testInfo) => {
  const marlowe = INVOICES.filter((f) => f.includes('marlowe'));
  const corrected = 'GB82WEST12345698765432';
  const first = await createBatch(host, 'ocr', marlowe, { name: 'Marlowe, October' });
  await waitForBatch(host, first);
  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${first}/review`);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row')).toHaveCount(2);
  const firstJob = (await grid.getByRole('row').nth(1).getAttribute('data-job-id')) ?? '';
  expect(firstJob).toMatch(/^\d+$/);
  await grid.getByRole('row').nth(1).click();
  const dialog = page.getByRole('dialog');
  let review = dialog.getByRole('region', { name: 'Invoice review' });
  // Nothing learnt yet: no suggestion on the first invoice of this supplier.
  await expect(review.getByRole('button', { name: /^Apply suggested/ })).toHaveCount(0);
  const readIban = await review.getByRole('textbox', { name: 'IBAN', exact: true }).inputValue();
  expect(readIban).not.toBe(corrected);
  await review.getByRole('textbox', { name: 'IBAN', exact: true }).fill(corrected);
  await review.getByRole('textbox', { name: 'Gross', exact: true }).fill('769.20');
  await review.getByRole('button', { name: 'Accept' }).click();
  await expect(review.getByRole('status')).toContainText(/^Accepted by \S+/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The supplier's next invoice, in a later batch: the IBAN as read, the remembered one beside it.
  const second = await createBatch(host, 'ocr', marlowe, { name: 'Marlowe, November', allowResend: true });
  await waitForBatch(host, second);
  await page.goto(`${host.url}/#/batches/${second}/review`);
  await expect(grid.getByRole('row')).toHaveCount(2);
  const secondJob = (await grid.getByRole('row').nth(1).getAttribute('data-job-id')) ?? '';
  expect(secondJob).not.toBe(firstJob);
  await grid.getByRole('row').nth(1).click();
  await expect(dialog).toBeVisible();
  review = dialog.getByRole('region', { name: 'Invoice review' });
  const iban = review.getByRole('textbox', { name: 'IBAN', exact: true });
  await expect(iban).toHaveValue(readIban);
  await expect(review).toContainText('The supplier memory has suggestions');
  const suggestion = review.locator('.invoice-review__suggestion').filter({ hasText: 'Suggested IBAN' });
  // The reviewed job is named as the window names it: its item number in its batch, and the batch.
  await expect(suggestion).toHaveText(`Suggested IBAN: ${corrected} (from your review of job 1 in “Marlowe, October”) Apply`);
  // Shown, not applied: the field and the saved reading keep the IBAN as read.
  await expect(iban).toHaveValue(readIban);
  await shot(page, 'invoice-review-suggestion', testInfo);
  const apply = review.getByRole('button', { name: `Apply suggested IBAN ${corrected}` });
  await apply.click();
  await expect(iban).toHaveValue(corrected);
  await expect(apply).toHaveCount(0);
  await expect(review).toContainText(`read: ${readIban === '' ? 'nothing' : readIban}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The samples' November Marlowe invoice prints no VAT number and passes every check: its row in
  // the list is marked, named by what the memory suggests and whose review taught it.
  const november = await createBatch(host, 'ocr', [join(SAMPLES, 'invoices-november', 'invoice-marlowe-INV-2026-0131.pdf')], { name: 'Marlowe, November' });
  await waitForBatch(host, november);
  await page.goto(`${host.url}/#/batches/${november}`);
  const row = grid.getByRole('row').nth(1);
  await expect(row).toContainText('Passed');
  await expect(
    row.getByRole('img', { name: new RegExp(`^Suggested VAT id\\b.* from your review of job 1 in “Marlowe, October”: open the job`) }),
  ).toBeVisible();
  // The invoice whose review taught it is not marked.
  await page.goto(`${host.url}/#/batches/${first}`);
  await expect(grid.getByRole('row')).toHaveCount(2);
  await expect(
    grid
      .getByRole('row')
      .nth(1)
      .getByRole('img', { name: /^Suggested/ }),
  ).toHaveCount(0);
});
