// Tier comparison in the window: on a batch of recordings, Compare tiers… sends two of them at
// all three tiers; the comparison table fills in with each tier's results, cost per item and the
// projection for the whole batch.
import { test, expect, openApp, RECORDINGS, shot } from './fixtures';
import { createBatch } from './helpers/processes';

test('compare three tiers on two recordings of a batch, side by side', async ({ host, page }, testInfo) => {
  const id = await createBatch(host, 'transcribe', RECORDINGS, { name: 'October calls' });
  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'October calls' })).toBeVisible();

  const panel = page.getByRole('region', { name: 'Tier comparison' });
  await panel.getByRole('button', { name: 'Compare tiers…' }).click();
  const form = panel.getByRole('form', { name: 'Compare tiers' });
  for (const t of ['Basic', 'Standard', 'Superior']) await expect(form.getByLabel(t)).toBeChecked();
  await form.getByLabel('Items to compare').fill('2');
  await form.getByRole('button', { name: 'Send and compare' }).click();

  await expect(page).toHaveURL(/#\/compare\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tier comparison' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Item', 'Basic', 'Standard', 'Superior']);
  // Every tier finished both items: the projection is filled for each.
  const projected = table.getByRole('row', { name: /^For all 3 items/ });
  await expect(projected.getByRole('cell')).toHaveText([/€0\.\d{2,4}/, /€0\.\d{2,4}/, /€0\.\d{2,4}/], { timeout: 20_000 });
  const done = table.getByRole('row', { name: /^Done/ });
  await expect(done.getByRole('cell')).toHaveText([/^2 of 2 ·/, /^2 of 2 ·/, /^2 of 2 ·/]);
  // One row per item, each tier's transcript beside the others.
  const items = table.locator('tbody tr');
  await expect(items).toHaveCount(2);
  await expect(items.first().getByRole('cell')).toHaveCount(3);
  for (const cell of await items.first().getByRole('cell').all()) await expect(cell).toContainText(/Agent|Customer/);
  // Prices rise with the tier.
  const perItem = await table
    .getByRole('row', { name: /^Cost per item/ })
    .getByRole('cell')
    .allTextContents();
  const euros = perItem.map((t) => Number(t.replace(/[^\d.]/g, '')));
  expect(euros[0]).toBeLessThan(euros[1] ?? 0);
  expect(euros[1]).toBeLessThan(euros[2] ?? 0);
  await shot(page, 'compare-tiers', testInfo);

  // The batch links to its comparison.
  await page.getByRole('link', { name: /← October calls/ }).click();
  await expect(page.getByRole('region', { name: 'Tier comparison' }).getByRole('link', { name: /Basic · Standard · Superior, 2 items/ })).toBeVisible();
});
