// The window in German, as a German OS gives it (locale de-DE): every screen says it in German
// and writes money, numbers and dates the German way. The user's own data (batch names, file
// names, a transcript) stays as it is; what is checked is the window's own words.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, dropFiles, SAMPLES } from './fixtures';
import { makeShowcase, screenRoutes } from './helpers/showcase';
import { createBatch, rpc, waitForBatch } from './helpers/processes';

test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

const FIXTURES = join(process.cwd(), 'test', 'fixtures');
const LOCALES = join(process.cwd(), 'src', 'renderer', 'src', 'i18n', 'locales');

type Tree = { [key: string]: string | Tree };
const values = (tree: Tree): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));

/** English sentences of the window (parts of at least three words between placeholders). */
function englishPhrases(): string[] {
  const phrases = new Set<string>();
  for (const file of readdirSync(join(LOCALES, 'en'))) {
    const en = values(JSON.parse(readFileSync(join(LOCALES, 'en', file), 'utf8')) as Tree);
    const deValues = values(JSON.parse(readFileSync(join(LOCALES, 'de', file), 'utf8')) as Tree);
    const de = new Set(deValues);
    // A part German says too (a command to type, a product name) is not English left over.
    const german = deValues.join('\n');
    for (const text of en) {
      if (de.has(text)) continue;
      for (const part of text.split(/\{\{[^}]*\}\}|<\/?\d+>|\$t\([^)]*\)/)) {
        const p = part.trim().replace(/[.:;,!?]+$/, '');
        if (p.split(/\s+/).filter((w) => /[a-z]/i.test(w)).length >= 3 && !german.includes(p)) phrases.add(p);
      }
    }
  }
  return [...phrases];
}

/** Words of the window's chrome (headings, buttons, labels, column heads, links). */
const CHROME = 'h1, h2, h3, h4, button, label, th, [role="columnheader"], nav a, legend, summary, [role="tab"], dt, caption, option';
const ENGLISH_WORDS =
  /\b(the|and|with|from|this|new|items?|batch(es)?|jobs?|costs?|results?|keys|rates?|settings|search|download|files?|folders?|cancel|resume|retry|pause|sent|failed|done|paused|running|queued|succeeded|show|hide|close|open|estimate|messages?|recipients?)\b/i;

test('every screen in German, with German numbers and money', async ({ launch, page }) => {
  test.setTimeout(180_000);
  const host = await launch({ apiUrl: null });
  const showcase = await makeShowcase(host, {
    ocr: 'Rechnungen Oktober',
    calls: 'Supportanrufe KW 42',
    messages: 'Versandhinweise',
    paused: 'Zurückgehaltene Hinweise',
  });
  const phrases = englishPhrases();
  expect(phrases.length, 'English phrases to look for').toBeGreaterThan(50);

  await page.goto(host.openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const found: string[] = [];
  for (const route of screenRoutes(showcase)) {
    await page.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, route.hash);
    await expect(page.locator(route.ready).first()).toBeVisible();
    await page.waitForTimeout(300);
    const body = await page.locator('body').innerText();
    for (const p of phrases) if (body.includes(p)) found.push(`${route.name}: "${p}"`);
    // The user's own words (a transcript's segments are buttons) and commands to type are not the window's.
    const chrome = page.locator(CHROME).filter({ hasNot: page.locator('.job-detail__segment-time') });
    for (const text of await chrome.allInnerTexts()) {
      if (text.trim().startsWith('batchdesk ')) continue;
      const m = ENGLISH_WORDS.exec(text);
      if (m !== null) found.push(`${route.name}: "${text.trim().slice(0, 80)}" (${m[0]})`);
    }
    // Money the German way: "0,05 €", never "€0.05".
    const english = /€[ \u00a0]?\d[\d.,]*/.exec(body);
    if (english !== null) found.push(`${route.name}: money written the English way: ${english[0]}`);
    if (route.name === 'batch-paused') expect(body).not.toContain('Paused by the user');
    if (route.name === 'costs') expect(body).toMatch(/\d,\d{2,4}[ \u00a0]€/);
    if (route.name.startsWith('job-')) await page.keyboard.press('Escape');
  }
  expect([...new Set(found)]).toEqual([]);
});

test('a drop with problems, its rejected rows, a refused budget and the default name, in German', async ({ launch, page, work }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  // Three good rows; a number without its country code, one with a leading 00, an empty text, a duplicate.
  const csv = join(work, 'nachrichten.csv');
  writeFileSync(
    csv,
    [
      'to,text,name',
      '+442079460001,"Hallo {{name}}",Anna',
      '07700 900123,"Hallo {{name}}",Ben',
      '+442079460002,,Clara',
      '00442079460003,"Hallo {{name}}",Dora',
      '+442079460004,"Hallo {{name}}",Emil',
      '+442079460001,"Hallo {{name}}",Anna',
      '+442079460005,"Hallo {{name}}",Fritz',
    ].join('\n') + '\n',
  );
  await page.goto(host.openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/new';
  });
  await page.getByRole('radio', { name: /^Nachrichten senden/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Dateien oder Ordner hier ablegen' }), [csv]);

  const problems = page.getByRole('region', { name: /4 Probleme: Diese Elemente werden übersprungen/ });
  await expect(problems).toContainText('nachrichten.csv Zeile 3: Die Telefonnummer „07700 900123“ ist nicht im internationalen Format');
  // Both numbers without "+" are one cause; the other one shows on demand, in German too.
  await problems.getByRole('button', { name: 'Alle 2 Elemente mit diesem Problem anzeigen' }).click();
  await expect(problems).toContainText('ersetzen Sie die führende 00 durch + (+442079460003)');
  await expect(problems).toContainText('nachrichten.csv Zeile 4: Die Spalte „text“ ist leer');
  await expect(problems).toContainText('Derselbe Empfänger +442079460001 und derselbe Text wie in Zeile 2');
  const shown = await problems.innerText();
  for (const english of ['is not in international format', 'column is empty', 'same recipient', ' row '])
    expect(shown, `English "${english}" in the problems`).not.toContain(english);

  // The rejected rows come back with their cause in German.
  const download = page.waitForEvent('download');
  await problems.getByRole('button', { name: 'Abgelehnte Zeilen herunterladen' }).click();
  const lines = readFileSync(await (await download).path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  // For the German spreadsheet the export menu starts on: a BOM, ';' and the problem column in German.
  expect(lines[0]).toBe('\uFEFFto;text;name;Problem');
  expect(lines).toHaveLength(5);
  expect(lines.join('\n')).toContain('Die Spalte „text“ ist leer');
  expect(lines.join('\n')).not.toContain('column is empty');

  // Left empty, the name field shows the name the batch gets, in German.
  await expect(page.getByLabel('Bezeichnung (optional)')).toHaveAttribute('placeholder', 'nachrichten.csv (3 Nachrichten)');

  // A budget of 0 breaks its rule: the sentence under the field is German.
  await page.getByLabel('Budget (EUR, optional)').fill('0');
  await expect(page.getByText('Ein Budget ist ein Betrag in EUR über 0', { exact: false })).toBeVisible();
  await expect(page.getByText('a budget is an amount', { exact: false })).toHaveCount(0);
});

test("the export for a German spreadsheet: German headers and words, the CSV's own columns as they were", async ({ launch, page }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  const id = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: 'Versandhinweise', channel: 'whatsapp' });
  await waitForBatch(host, id, 'done');
  await page.goto(host.openUrl);
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${id}`);
  await page.getByLabel('Exportformat').selectOption({ label: 'CSV' });
  // A German OS: the choice starts on.
  await expect(page.getByRole('checkbox', { name: 'Für eine Tabellenkalkulation auf Deutsch' })).toBeChecked();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportieren' }).click()]);
  const raw = readFileSync((await download.path()) ?? '', 'utf8');
  expect(raw.charCodeAt(0)).toBe(0xfeff);
  const [head = '', first = ''] = raw.slice(1).split('\r\n');
  const header = head.split(';');
  expect(header.slice(0, 3)).toEqual(['Nr.', 'Quelle', 'Auftragsstatus']);
  expect(header).toEqual(expect.arrayContaining(['Empfänger', 'Nachrichtenstatus', 'Sandbox', 'Kosten (EUR)']));
  expect(header.slice(-2)).toEqual(['first_name', 'order']);
  const cell = (name: string): string | undefined => first.split(';')[header.indexOf(name)];
  expect(cell('Quelle')).toBe('messages.csv Zeile 2');
  expect(cell('Auftragsstatus')).toBe('Erfolgreich');
  expect(cell('Nachrichtenstatus')).toBe('angenommen');
  expect(cell('Kosten (EUR)')).toMatch(/^\d+,\d{4}$/);
  expect(cell('order')).toBe('A-10231');
  expect(raw).not.toMatch(/;(succeeded|accepted|yes|no);/);
});

test('a batch paused by its budget says why in German, in one line, with the raise as a control', async ({ launch, page }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  // A budget of 0,0001 €: the first message would cross it, so the batch pauses before sending anything.
  const id = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: 'Mahnungen', channel: 'whatsapp', budget: 1 });
  await waitForBatch(host, id, 'paused');
  await page.goto(host.openUrl);
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${id}`);
  const reason = page.getByTestId('pause-reason');
  await expect(reason).toBeVisible();
  // Said from the engine's code in German, with German money; not the engine's English sentence.
  await expect(reason).toHaveText(
    /^Das Budget von 0,0001[ \u00a0]€ ist erreicht: 0,00[ \u00a0]€ ausgegeben, und das nächste Element \(.+\) kostet etwa \d+,\d{2,4}[ \u00a0]€\.$/,
  );
  const text = await reason.innerText();
  expect(text).not.toMatch(/would be|crossed|spent|reached|batchdesk|`/i);
  await expect(page.getByRole('button', { name: /^Budget auf \d+,\d{2,4}[ \u00a0]€ erhöhen und fortsetzen$/ })).toBeVisible();
  expect(await page.locator('main').innerText()).not.toContain('batchdesk ');
});

test("a failed job's error line and history in German, the engine's and the API's words only as detail", async ({ launch, page }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  // The built-in sandbox reads only text a document carries: a photo of a page is refused (HTTP 422), for good.
  const id = await createBatch(host, 'ocr', [join(FIXTURES, 'media', 'page.jpg')], { name: 'Belege November' });
  const job = async (): Promise<{ id: number; state: string } | undefined> =>
    (await rpc<{ rows: { id: number; state: string }[] }>(host, 'jobs.list', { batchId: id, offset: 0, limit: 10 })).rows[0];
  await expect.poll(async () => (await job())?.state, { timeout: 30_000 }).toBe('failed');
  const jobId = (await job())?.id ?? 0;
  // Retry failed, and it fails again: the history has two failures and the Retry between them.
  await rpc(host, 'batches.retry', { id });
  const history = async (): Promise<string[]> => (await rpc<{ events: { to: string }[] }>(host, 'jobs.get', { id: jobId })).events.map((e) => e.to);
  await expect.poll(history, { timeout: 30_000 }).toEqual(['running', 'failed', 'queued', 'running', 'failed']);

  await page.goto(host.openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${id}/jobs/${jobId}`);
  const dialog = page.locator('dialog[open]');
  await expect(dialog).toBeVisible();

  const errorLine = dialog.getByTestId('job-error-line');
  await expect(errorLine).toHaveText('Fehlgeschlagen (ungültige Anfrage), HTTP 422: Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.');

  const changes = dialog.getByRole('region', { name: 'Verlauf' });
  const rows = changes.getByRole('row');
  // The head and the five changes: claimed, failed, queued again by Retry, claimed, failed.
  await expect(rows).toHaveCount(6);
  const cells = async (i: number): Promise<string[]> => (await rows.nth(i).getByRole('cell').allInnerTexts()).slice(1).map((c) => c.trim());
  const failed = 'HTTP-Status 422: Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.';
  expect(await cells(1)).toEqual(['In der Warteschlange', 'Läuft', '']);
  expect(await cells(2)).toEqual(['Läuft', 'Fehlgeschlagen', failed]);
  expect(await cells(3)).toEqual(['Fehlgeschlagen', 'In der Warteschlange', 'Erneut eingereiht (Fehlgeschlagene wiederholen).']);
  expect(await cells(4)).toEqual(['In der Warteschlange', 'Läuft', '']);
  expect(await cells(5)).toEqual(['Läuft', 'Fehlgeschlagen', failed]);

  // None of the window's English, and none of the API's words, in the error line or the history.
  const shown = `${await errorLine.innerText()}\n${await changes.innerText()}`;
  const found = englishPhrases().filter((p) => shown.includes(p));
  const words = ENGLISH_WORDS.exec(shown);
  if (words !== null) found.push(`"${words[0]}"`);
  for (const api of ['sandbox', 'cannot read', 'carries no text', 'invalid_request']) if (shown.includes(api)) found.push(api);
  expect(found).toEqual([]);
  // The API's own words stay reachable, marked as English, under the line.
  await expect(dialog.locator('.job-detail__error-detail[lang="en"]')).toContainText('cannot read images');
});

test("a refusal, and a tier comparison's failed cells, in German", async ({ launch, page, work }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  // A photo of a page: the built-in sandbox refuses it (HTTP 422) at every tier.
  const id = await createBatch(host, 'ocr', [join(FIXTURES, 'media', 'page.jpg')], { name: 'Belege November' });
  const view = await rpc<{ group: string }>(host, 'compare.create', { batchId: id, tiers: ['basic', 'standard'], sample: 1 });
  const states = async (): Promise<string[]> =>
    (await rpc<{ items: { cells: { state: string }[] }[] }>(host, 'compare.get', { group: view.group })).items.flatMap((i) => i.cells.map((c) => c.state));
  await expect.poll(states, { timeout: 30_000 }).toEqual(['failed', 'failed']);

  await page.goto(host.openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/compare/${view.group}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stufenvergleich' })).toBeVisible();
  const cells = page.locator('.compare__error');
  await expect(cells).toHaveCount(2);
  await expect(cells).toHaveText([
    'Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.',
    'Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.',
  ]);
  // The API's own words stay as the detail, marked as such.
  await expect(cells.first()).toHaveAttribute('title', /^Im Wortlaut der API bzw\. des Programms \(Englisch\): .*cannot read images/);
  const table = await page.getByRole('table').innerText();
  expect(englishPhrases().filter((p) => table.includes(p))).toEqual([]);
  expect(table).not.toMatch(/cannot read|HTTP 422|invalid_request/);

  // A folder that does not exist, refused by the engine: said from its code, in German.
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/watch';
  });
  const form = page.getByRole('region', { name: 'Einen Ordner überwachen' });
  await form.getByLabel('Ordner', { exact: true }).fill(join(work, 'nirgendwo'));
  await form.getByRole('button', { name: 'Ordner überwachen' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText(`${join(work, 'nirgendwo')} existiert nicht`);
  const said = await alert.innerText();
  expect(englishPhrases().filter((p) => said.includes(p))).toEqual([]);
  expect(said).not.toMatch(/does not exist|batchdesk /);
});
