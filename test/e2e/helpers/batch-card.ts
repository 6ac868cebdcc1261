// Reading a batch card (list or detail) the way a user reads it: status, counts by state, progress.
import { expect, type Locator, type Page } from '@playwright/test';

export function batchCard(page: Page, name?: string): Locator {
  const cards = page.getByRole('article');
  return name === undefined ? cards.first() : cards.filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** A batch's row on the Batches screen (a paused batch stays a row there). */
export function batchRow(page: Page, name: string): Locator {
  return page.getByRole('table', { name: 'Batches' }).locator('tbody > tr.batch-table__row').filter({ hasText: name });
}

/** From the Batches screen, the batch's own page: its card. */
export async function openBatchPage(page: Page, name: string): Promise<Locator> {
  await batchRow(page, name).getByRole('link', { name }).first().click();
  await page.waitForURL(/#\/batches\/[^/]+$/);
  return batchCard(page, name);
}

export function statusOf(card: Locator): Locator {
  return card.locator('.status-pill');
}

/** The number shown beside a state label ("Succeeded 12"). */
export async function countOf(card: Locator, label: 'Queued' | 'Running' | 'Waiting to retry' | 'Succeeded' | 'Failed' | 'Cancelled'): Promise<number> {
  const dd = card.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  const text = (await dd.textContent()) ?? '';
  return Number(text.replace(/[^\d]/g, ''));
}

/** The progress line: "12 of 40 items processed" (or "finished"). */
export const PROGRESS = /([\d,]+) of ([\d,]+) items? (?:processed|finished)/;

/** "N of N items processed": every item has an outcome. */
export const allOf = (n: number): RegExp => new RegExp(`(?<![\\d,])${n.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} items? (?:processed|finished)`);

/** "12 of 40 items processed" -> 12. */
export async function finishedOf(card: Locator): Promise<number> {
  const line = await card.getByText(PROGRESS).textContent();
  const m = PROGRESS.exec(line ?? '');
  return Number((m?.[1] ?? '-1').replace(/,/g, ''));
}

/** Creates a message batch in the New batch screen from a CSV (via the file input) and starts it. */
export async function startMessageBatch(page: Page, csvPath: string, name: string, expectedItems: number): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New batch', exact: true }).click();
  await page.getByRole('radio', { name: /^Send messages/ }).check();
  await page.getByLabel('Files to add').setInputFiles(csvPath);
  await page.getByLabel('Name (optional)').fill(name);
  const estimate = page.getByRole('region', { name: 'Estimate' });
  await expect(estimate.locator('dt', { hasText: /^Items$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText(expectedItems.toLocaleString('en-US'));
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}
