// The window never passes a result the sandbox made up off as real (docs/api-assumptions.md A21):
// a user's own recording, transcribed by the sandbox, is marked "Made up" in the job table and the
// job dialog says what that means; a sample recording's script, read from the file, is not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tinyWav } from '../helpers/wav-folder';
import { test, expect, openApp, goTo, dropFiles, shot, RECORDINGS } from './fixtures';

test('a made-up transcript is tagged in the job table and explained in the job dialog', async ({ launch, page, work }, testInfo) => {
  // The built-in sandbox (no API configured): only there can the window tell a sandbox's own reading
  // from a real API's, since an API at a URL may be either.
  const host = await launch({ apiUrl: null });
  const mine = join(work, 'my-call.wav');
  writeFileSync(mine, tinyWav(11));
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [mine, RECORDINGS[0] ?? '']);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  const grid = page.getByRole('grid', { name: 'Jobs' });
  const made = grid.getByRole('row').filter({ hasText: 'my-call.wav' });
  const read = grid.getByRole('row').filter({ hasText: 'call-001-double-charge.wav' });
  // A mark on the made-up result, said once at the column's head (not a badge on every row).
  await expect(made.getByTestId('made-up-tag')).toHaveAttribute('aria-label', 'Made up');
  await expect(made.getByTestId('made-up-tag')).toHaveAttribute('title', /not a real result/);
  await expect(grid.getByTestId('made-up-legend')).toHaveCount(1);
  await expect(grid.getByTestId('made-up-legend')).toHaveText('* made up');
  await expect(read).toContainText('Succeeded');
  await expect(read.getByTestId('made-up-tag')).toHaveCount(0);
  await made.scrollIntoViewIfNeeded();
  await shot(page, 'jobs-made-up', testInfo);

  await made.click();
  const dialog = page.getByRole('dialog');
  const notice = dialog.getByRole('region', { name: 'Result' }).getByTestId('made-up-notice');
  await expect(notice).toContainText('Made up by the built-in sandbox, not a real result: the sandbox answers in place of the real API.');
  await shot(page, 'job-detail-made-up', testInfo);
  await page.keyboard.press('Escape');

  await read.click();
  await expect(dialog.getByRole('region', { name: 'Result' })).toContainText('Good morning, Harbourline Energy');
  await expect(dialog.getByTestId('made-up-notice')).toHaveCount(0);
  // Not made up is not "from the real API": the sandbox says it read the recording's own script.
  await expect(dialog.getByTestId('read-by-sandbox-notice')).toContainText('a real reading, not made up');
});
