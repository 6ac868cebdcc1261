// A transcript as people use it in the window: the job dialog lists the segments with their times
// and speakers beside the recording, and clicking one plays the recording from that segment's start.
import { test, expect, openApp, goTo, dropFiles, shot, RECORDINGS } from './fixtures';

test('job dialog: transcript segments with times and speakers; a click plays the recording from there', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), RECORDINGS);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('row').filter({ hasText: 'Succeeded' })).toHaveCount(3);
  await grid.getByRole('row').filter({ hasText: 'call-001-double-charge.wav' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const result = dialog.getByRole('region', { name: 'Result' });
  const audio = dialog.getByRole('region', { name: 'Source' }).locator('audio');
  await expect(audio).toHaveAttribute('aria-label', 'Recording call-001-double-charge.wav');

  // The script's three turns, each with its time span and speaker.
  const segments = result.getByRole('list', { name: 'Transcript segments' }).getByRole('listitem');
  await expect(segments).toHaveCount(3);
  await expect(segments.nth(0)).toContainText(/^0:00\.0–0:02\.\d\s*Agent\s*Good morning, Harbourline Energy/);
  await expect(segments.nth(1)).toContainText(/^0:02\.\d–0:03\.\d\s*Customer\s*Hi, I think I was charged twice for October\./);
  await expect(segments.nth(2)).toContainText(/^0:03\.\d–0:05\.\d\s*Agent\s*I'm sorry about that/);

  // Click the customer's turn: the recording moves to its start (and plays, where it can).
  const second = segments.nth(1).getByRole('button');
  const label = (await second.textContent()) ?? '';
  const start = /^0:(\d\d\.\d)/.exec(label)?.[1];
  expect(start).toBeDefined();
  const startSeconds = Number(start);
  await second.click();
  const at = await audio.evaluate((el) => (el as unknown as { currentTime: number }).currentTime);
  // Tenths shown, whole milliseconds stored; and it may have played a moment since.
  expect(at).toBeGreaterThanOrEqual(startSeconds);
  expect(at).toBeLessThan(startSeconds + 1.2);
  await shot(page, 'job-detail-segments', testInfo);

  // The first turn: back to the beginning.
  await segments.nth(0).getByRole('button').click();
  await expect.poll(() => audio.evaluate((el) => (el as unknown as { currentTime: number }).currentTime)).toBeLessThan(1.2);
});
