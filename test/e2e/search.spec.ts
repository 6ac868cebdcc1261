// Global search in the window: the header's box finds a transcript across batches, the hit shows
// the passage with the words marked, and opens its job beside its batch.
import { test, expect, openApp, goTo, dropFiles, shot, RECORDINGS } from './fixtures';

test('search all batches from the header, open the hit', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), RECORDINGS);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  const box = page.getByRole('search').getByLabel('Search all batches');
  await box.fill('charged twice');
  await box.press('Enter');
  await expect(page).toHaveURL(/#\/search\/charged%20twice$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search: “charged twice”');
  await expect(page.getByRole('status').filter({ hasText: 'item' })).toHaveText('1 item in 1 batch');
  const hit = page.locator('.search-hit').first();
  await expect(hit.locator('mark')).toHaveText(['charged', 'twice']);
  await shot(page, 'search-results', testInfo);
  await hit.getByRole('link', { name: /call-001-double-charge\.wav/ }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+\/jobs\/\d+$/);
  await expect(page.getByRole('dialog')).toContainText('charged twice');
  // Next / previous walk the batch's jobs, by button and by arrow key.
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: '← Previous' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Next →' }).click();
  await expect(dialog).toContainText('call-002-late-parcel.wav');
  await expect(page).toHaveURL(/\/jobs\/2$/);
  await dialog.getByRole('heading', { level: 2 }).click();
  await page.keyboard.press('ArrowRight');
  await expect(dialog).toContainText('call-003-cancel-plan.wav');
  await expect(dialog.getByRole('button', { name: 'Next →' })).toBeDisabled();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog).toContainText('call-002-late-parcel.wav');
  await shot(page, 'job-detail-next-previous', testInfo);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await box.fill('zebra crossing');
  await box.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing found' })).toBeVisible();

  // By meaning: once the transcripts are embedded (a follow-up batch), a paraphrase finds the call.
  await page.getByRole('link', { name: 'Meaning' }).click();
  await expect(page.getByRole('alert')).toContainText('No results are embedded yet');
  await goTo(page, 'Batches');
  // Three files dropped: named by what they are and the day, "Recordings 30 Nov (3 recordings)".
  await page
    .getByRole('link', { name: /^Recordings .+ \(3 recordings\)$/ })
    .first()
    .click();
  await page.getByRole('button', { name: 'Follow-up batch…' }).click();
  await page.getByRole('radio', { name: /^Embed for search/ }).check();
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  await box.fill('billed two times');
  await box.press('Enter');
  await page.getByRole('link', { name: 'Meaning' }).click();
  await expect(page).toHaveURL(/#\/search-meaning\/billed%20two%20times$/);
  await expect(page.locator('.search-hit').first()).toContainText('call-001-double-charge.wav');
  await expect(page.locator('.search-hit').first()).toContainText('charged twice');
  await shot(page, 'search-by-meaning', testInfo);
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  // The engine refuses a search with a code; the window says it in German with its own controls,
  // never the engine's English or a command to type.
  test('a refused search is said in German', async ({ host, page }) => {
    await page.goto(host.openUrl);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const box = page.getByRole('search').getByLabel('Alle Stapel durchsuchen');
    await box.fill('doppelt abgebucht');
    await box.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Suche: „doppelt abgebucht“');
    await expect(page.getByRole('status').filter({ hasText: 'Nichts gefunden' })).toBeVisible();

    // By meaning, with nothing embedded yet.
    await page.getByRole('link', { name: 'Bedeutung' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Es sind noch keine Ergebnisse eingebettet');
    await expect(alert).toContainText('Folgestapel… und dann Für die Suche einbetten');
    await expect(alert).not.toContainText(/No results|embedded|batchdesk|--semantic|fehlgeschlagen/);

    // A pasted passage past the limit: its length and the limit the German way.
    await box.fill(`Rechnung ${'sehr '.repeat(250)}lang`);
    await box.press('Enter');
    await expect(page.getByRole('alert')).toHaveText(/^Die Suche ist 1\.263 Zeichen lang; erlaubt sind höchstens 500\./);
  });
});
