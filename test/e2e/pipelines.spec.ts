// Pipelines in the window: New batch with "Then" steps (estimate of every step), the pipeline shown
// as linked steps with their progress and cost, a follow-up item's origin in the job dialog, and
// "Follow-up batch…" on a finished batch.
import { test, expect, openApp, goTo, dropFiles, shot, RECORDINGS } from './fixtures';

test('transcribe -> summary -> CRM from New batch, then a follow-up of the transcripts', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), RECORDINGS);
  const then = page.getByRole('region', { name: 'Then' });
  await then.getByRole('button', { name: 'Add a step' }).click();
  await expect(then.getByLabel('Step 2 capability')).toHaveValue('text');
  await expect(then.getByLabel('Step 2 option')).toHaveValue('summary');
  await then.getByRole('button', { name: 'Add a step' }).click();
  await then.getByLabel('Step 3 capability').selectOption('crm');
  await expect(then.getByLabel('Step 3 option')).toHaveValue('conversation');
  // CRM results offer no text: no fourth step.
  await expect(then.getByRole('button', { name: 'Add a step' })).toHaveCount(0);
  await expect(then).toContainText('Results of CRM offer no text for a next step');

  const steps = page.getByRole('table', { name: 'Estimate of every step' });
  await expect(steps.getByRole('row')).toHaveCount(4);
  await expect(steps).toContainText('text (summary)');
  await expect(steps).toContainText('about 15 characters of text per audio second');
  await expect(steps).toContainText('one record per item of step 2');
  await shot(page, 'new-batch-pipeline', testInfo);

  await page.getByRole('button', { name: 'Start pipeline (3 steps)' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const pipeline = page.getByRole('region', { name: 'Pipeline of 3 steps' });
  await expect(pipeline.getByTestId('pipeline-step-3')).toContainText('Done', { timeout: 30_000 });
  await expect(pipeline.getByTestId('pipeline-step-2')).toContainText('3 of 3 done');
  await shot(page, 'batch-pipeline', testInfo);

  // Step 3: its item says which transcript's summary it logged.
  await pipeline.getByTestId('pipeline-step-3').getByRole('link').click();
  await expect(page.getByTestId('pipeline-step')).toContainText('Step 3 of pipeline');
  await page.getByRole('grid', { name: 'Jobs' }).getByRole('row').nth(1).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('item-origin')).toContainText('call-001-double-charge.wav');
  await shot(page, 'job-detail-pipeline-step', testInfo);
  await dialog.getByRole('button', { name: /close/i }).first().click();

  // A follow-up of step 1's transcripts, made later, takes its three results.
  await page.getByRole('region', { name: 'Pipeline of 3 steps' }).getByTestId('pipeline-step-1').getByRole('link').click();
  await page.getByRole('button', { name: 'Follow-up batch…' }).click();
  await expect(page).toHaveURL(/#\/new\/from\//);
  await expect(page.getByTestId('follow-up-of')).toContainText('3 succeeded so far');
  await page.getByRole('radio', { name: /^Embed for search/ }).check();
  const estimate = page.getByRole('region', { name: 'Estimate' });
  await expect(estimate.locator('dt', { hasText: /^Items$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText('3');
  await shot(page, 'new-batch-follow-up', testInfo);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('region', { name: 'Pipeline of 4 steps' })).toBeVisible();
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
});
