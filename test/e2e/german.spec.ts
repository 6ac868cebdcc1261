// The window in German, as a German OS gives it (locale de-DE): every screen says it in German
// and writes money, numbers and dates the German way. The user's own data (batch names, file
// names, a transcript) stays as it is; what is checked is the window's own words.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, dropFiles, shot, SAMPLES, RECORDINGS } from './fixtures';
import type { Locator, Page } from '@playwright/test';
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

/** The window in German on New batch, "Nachrichten senden" chosen and `csv` dropped on it. */
async function dropMessagesInGerman(page: Page, openUrl: string, csv: string): Promise<void> {
  await page.goto(openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/new';
  });
  await page.getByRole('radio', { name: /^Nachrichten senden/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Dateien oder Ordner hier ablegen' }), [csv]);
}

/** A batch's page in the window, its pause reason shown. */
async function openPausedBatch(page: Page, openUrl: string, id: string): Promise<Locator> {
  await page.goto(openUrl);
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${id}`);
  const reason = page.getByTestId('pause-reason');
  await expect(reason).toBeVisible();
  return reason;
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
  await dropMessagesInGerman(page, host.openUrl, csv);

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
  const reason = await openPausedBatch(page, host.openUrl, id);
  // Said from the engine's code in German, with German money, as one short sentence; not the engine's English sentence.
  await expect(reason.locator('.batch-card__pause-line')).toHaveText(/^Das Budget von < 0,01[ \u00a0]€ ist erreicht: 0,00[ \u00a0]€ ausgegeben\.$/);
  const box = await reason.boundingBox();
  expect(box?.height ?? 100).toBeLessThan(40);
  // The whole reason under Einzelheiten: the next item as the window says a CSV row.
  await reason.getByRole('button', { name: 'Einzelheiten' }).click();
  await expect(reason.locator('.batch-card__pause-more')).toHaveText(
    /^Das Budget von < 0,01[ \u00a0]€ ist erreicht: 0,00[ \u00a0]€ ausgegeben, und das nächste Element \(messages\.csv, Zeile \d+\) kostet etwa \d+,\d{2,4}[ \u00a0]€\.$/,
  );
  const text = await reason.innerText();
  expect(text).not.toMatch(/would be|crossed|spent|reached|\brow\b|batchdesk|`/i);
  await expect(page.getByRole('button', { name: /^Budget auf \d+,\d{2,4}[ \u00a0]€ erhöhen und fortsetzen$/ })).toBeVisible();
  expect(await page.locator('main').innerText()).not.toContain('batchdesk ');
});

test('a paused batch page in German: a compact header, at least 8 job rows in the first viewport', async ({ launch, page, work }, testInfo) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  const lines = ['to,text,name'];
  for (let i = 0; i < 20; i++) lines.push(`+44207946${String(i).padStart(4, '0')},Hallo {{name}}.,Kunde ${i}`);
  const csv = join(work, 'kunden-november.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  // A budget of 0,03 €: six messages go, then the batch pauses for its budget (the tallest header: reason and raise).
  const id = await createBatch(host, 'channel', [csv], { name: 'Kunden November', channel: 'whatsapp', budget: 300 });
  await waitForBatch(host, id, 'paused');
  const reason = await openPausedBatch(page, host.openUrl, id);
  expect((await reason.boundingBox())?.height ?? 100).toBeLessThan(40);
  await expect(page.getByRole('button', { name: /^Budget auf .+ erhöhen und fortsetzen$/ })).toBeInViewport();
  // The id only in its control for support, never in the header's words.
  await expect(page.getByRole('article')).not.toContainText(id);
  await expect(page.getByRole('button', { name: 'ID kopieren' })).toBeVisible();
  const rows = page.getByRole('grid').locator('[role="row"]');
  await expect(rows.nth(8)).toBeAttached();
  const inView = await rows.evaluateAll((all) => {
    const viewport = (globalThis as unknown as { innerHeight: number }).innerHeight;
    return all.slice(1).filter((r) => {
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.top >= 0 && b.bottom <= viewport + 0.5;
    }).length;
  });
  expect(inView).toBeGreaterThanOrEqual(8);
  await shot(page, 'german-paused-batch-page', testInfo);
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

test("a pipeline's steps, a hot folder's steps and the job table in German; the phone country from the window", async ({ launch, page }) => {
  test.setTimeout(150_000);
  // The host runs on LANG=C.UTF-8 (no region); the window's browser is in de-DE.
  const host = await launch({ apiUrl: null });
  await page.goto(host.openUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const go = (hash: string) =>
    page.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, hash);

  // New batch: a transcription with a summary after it, started from the window.
  await go('#/new');
  await page.getByRole('radio', { name: /^Aufnahmen transkribieren/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Dateien oder Ordner hier ablegen' }), RECORDINGS);
  const then = page.getByRole('region', { name: 'Danach' });
  await then.getByRole('button', { name: 'Einen Schritt hinzufügen' }).click();
  await expect(then.getByLabel('Funktion von Schritt 2')).toHaveValue('text');
  await page.getByRole('button', { name: 'Pipeline starten (2 Schritte)' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);

  // The job table: its header on one line (each name whole in its title), the number column wide enough for 9.999.999.
  const grid = page.getByRole('grid', { name: 'Aufträge' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  const head = await grid.evaluate((g) => {
    const cells = Array.from(g.querySelectorAll('[role="columnheader"]')) as unknown as {
      textContent: string | null;
      title: string;
      scrollHeight: number;
      clientHeight: number;
    }[];
    const win = globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string; font: string; paddingLeft: string; paddingRight: string } };
    const doc = (
      globalThis as unknown as {
        document: { createElement(t: string): { getContext(k: string): { font: string; measureText(t: string): { width: number } } } };
      }
    ).document;
    const seq = g.querySelector('.job-grid__body [role="gridcell"]') as unknown as { clientWidth: number };
    const style = win.getComputedStyle(seq);
    const ctx = doc.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    return {
      wrapping: cells.filter((c) => win.getComputedStyle(c).whiteSpace !== 'nowrap' || c.scrollHeight > c.clientHeight + 1).map((c) => c.textContent),
      untitled: cells.filter((c) => c.title !== (c.textContent ?? '').trim()).map((c) => c.textContent),
      seqRoom: seq.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      seqNeeds: ctx.measureText('9.999.999').width,
    };
  });
  expect(head.wrapping).toEqual([]);
  expect(head.untitled).toEqual([]);
  expect(head.seqRoom).toBeGreaterThanOrEqual(head.seqNeeds);

  // Costs: the step's batch is named by the window's words for it, not the command line's "text (summary)".
  await expect
    .poll(
      async () => {
        await go('#/costs');
        await go('#/');
        await go('#/costs');
        await page.waitForTimeout(500);
        return page.locator('main').innerText();
      },
      { timeout: 60_000 },
    )
    .toContain('→ Texte (Zusammenfassung)');
  expect(await page.locator('main').innerText()).not.toMatch(/→ text|text \(summary\)/);

  // Watch folders: the steps are chosen from lists by their German names; no typed "text:summary".
  await go('#/watch');
  const form = page.getByRole('region', { name: 'Einen Ordner überwachen' });
  await expect(form.locator('input[placeholder="text:summary"]')).toHaveCount(0);
  const steps = form.getByRole('group', { name: 'Danach (optional)' });
  await steps.getByRole('button', { name: 'Einen Schritt hinzufügen' }).click();
  const capability = steps.getByLabel('Funktion von Schritt 2');
  await expect(capability.locator('option:checked')).toHaveText('Zusammenfassen, antworten, einordnen');
  const shown = await steps.innerText();
  expect(shown).not.toMatch(/text:summary|\btext\b/);

  // The host's locale names no country: the window's de-DE is the country of national phone numbers.
  await go('#/keys');
  await expect(page.getByLabel('Land für Telefonnummern').locator('option[value="auto"]')).toHaveText(
    'Automatisch: Gebietsschema dieses Fensters (Deutschland), da das des Computers kein Land nennt',
  );
  // A setting out of its bounds is refused in German, naming the field and the range.
  const settings = page.getByRole('form', { name: 'Einstellungen' });
  await settings.getByLabel('Gleichzeitige Anfragen').fill('900');
  await settings.getByRole('button', { name: 'Einstellungen speichern' }).click();
  await expect(settings.getByRole('alert')).toHaveText(
    'Gleichzeitige Anfragen: „900“ ist keine ganze Zahl von 1 bis 256. Geben Sie eine Zahl in diesem Bereich ein und speichern Sie erneut.',
  );
});

test("a German shop's numbers without a country code, read as German at the user's word", async ({ launch, page, work }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  const csv = join(work, 'kunden.csv');
  writeFileSync(csv, ['to,text,name', '0151 23450013,Hallo Anna,Anna', '0151 23450014,Hallo Ben,Ben', '+442079460001,Hello Clara,Clara'].join('\n') + '\n');
  await dropMessagesInGerman(page, host.openUrl, csv);

  // Refused as written; the window offers its country (the window's de-DE), and says when not to.
  const problems = page.getByRole('region', { name: /2 Probleme: Diese Elemente werden übersprungen/ });
  await expect(problems).toContainText('Die Telefonnummer „0151 23450013“ ist nicht im internationalen Format');
  await expect(problems).toContainText('Nur wenn jede solche Nummer der Datei aus Deutschland ist');
  await problems.getByRole('button', { name: 'Nummern ohne Ländervorwahl als Nummern aus Deutschland (DE) lesen' }).click();

  // Now every row is a message: the field names the country, the numbers are German ones.
  await expect(page.getByLabel('Nummern ohne Ländervorwahl (optional)')).toHaveValue('DE');
  await expect(page.getByRole('region', { name: /Probleme: Diese Elemente werden übersprungen/ })).toHaveCount(0);
  await expect(page.getByTestId('new-batch-summary')).toContainText('3');
  await page
    .getByText(/Zeilen anzeigen|3 Zeilen/)
    .first()
    .click({ trial: true });
  await expect(page.getByText('+4915123450013').first()).toBeAttached();
});

test("messages in German: delivery states in words, WhatsApp by name, a hold's zone by its name, made-up results marked once", async ({
  launch,
  page,
  work,
}) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  const sent = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: 'Versand', channel: 'whatsapp' });
  await waitForBatch(host, sent, 'done');
  // Quiet hours from this hour in Berlin: a recipient there waits until they end.
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const two = (n: number): string => String(n).padStart(2, '0');
  const csv = join(work, 'nachts.csv');
  writeFileSync(csv, 'to,text,timezone\n+4915123450001,Hallo,Europe/Berlin\n');
  const held = await createBatch(host, 'channel', [csv], { name: 'Nachts', channel: 'whatsapp', quietHours: `${two(hour)}:00-${two((hour + 2) % 24)}:00` });

  await page.goto(host.openUrl);
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${sent}`);
  const card = page.getByTestId(`batch-${sent}`);
  await expect(card).toContainText('WhatsApp');
  expect(await card.innerText()).not.toContain('whatsapp');
  const grid = page.getByRole('grid', { name: 'Aufträge' });
  const first = grid.getByRole('row').nth(1);
  await expect(first).toContainText('Angenommen');
  // The provider's state is said in German; its message id is for the job dialog.
  const rows = await grid.innerText();
  expect(rows).not.toMatch(/accepted|msg_/);
  // Made up by the sandbox: a mark on each result with the German words, the badge once at the column's head.
  await expect(grid.getByTestId('made-up-legend')).toHaveCount(1);
  await expect(grid.getByTestId('made-up-legend')).toHaveText('* erfunden');
  await expect(first.getByTestId('made-up-tag')).toHaveAttribute('title', /^Von der eingebauten Sandbox erfunden, kein echtes Ergebnis/);
  await expect(first.getByTestId('made-up-tag')).toHaveAttribute('aria-label', 'Erfunden');
  expect(rows).not.toMatch(/Made up|not a real result/);

  await first.click();
  const dialog = page.locator('dialog[open]');
  await expect(dialog.getByTestId('delivery-state')).toHaveText('Angenommen');
  await expect(dialog).toContainText(/msg_\w+/);
  await page.keyboard.press('Escape');

  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, `#/batches/${held}`);
  await expect(page.getByTestId('waiting-reason')).toHaveText(/^Zurückgehalten: wartet bis \d{2}:\d{2} \(Mitteleuropäische Zeit\), 1 Nachricht\.$/, {
    timeout: 30_000,
  });
  // The row's hold too (its CSV's own timezone column stays as written: that is the user's data).
  await expect(page.getByRole('grid', { name: 'Aufträge' }).getByRole('row').nth(1)).toContainText('(Mitteleuropäische Zeit): die Ruhezeiten des Empfängers.');
  // In Batches too: the held batch's row says so under "Läuft", not only its page.
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/batches';
  });
  const heldRow = page.getByTestId(`batch-row-${held}`);
  await expect(heldRow).toBeVisible();
  await expect(page.locator('.batch-table__pause').getByTestId('waiting-reason')).toHaveText(
    /^Zurückgehalten: wartet bis \d{2}:\d{2} \(Mitteleuropäische Zeit\), 1 Nachricht\.$/,
  );
});

test('New batch in German: the channel by name, a start time written the German way, redaction kinds by name', async ({ launch, page }) => {
  test.setTimeout(120_000);
  const host = await launch({ apiUrl: null });
  await page.goto(host.openUrl);
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/new';
  });
  await page.getByRole('radio', { name: /^Nachrichten senden/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Dateien oder Ordner hier ablegen' }), [join(SAMPLES, 'messages.csv')]);
  await expect(page.getByRole('radio', { name: 'WhatsApp (Messaging-App)' })).toBeChecked();

  // Not the browser's "mm/dd/yyyy, --:-- --": a date and a time the German way.
  const when = page.getByRole('group', { name: 'Starten um (optional)' });
  await expect(when.getByLabel('Datum')).toHaveAttribute('placeholder', 'TT.MM.JJJJ');
  await expect(when.getByLabel('Uhrzeit')).toHaveAttribute('placeholder', 'z. B. 09:30');
  await when.getByLabel('Datum').fill('31.02.2030');
  await when.getByLabel('Uhrzeit').fill('09:30');
  await expect(when.locator('.field-error')).toHaveText('„31.02.2030“ ist kein Datum: Schreiben Sie es als TT.MM.JJJJ, z. B. 31.12.2026.');
  await when.getByLabel('Datum').fill('03.02.2030');
  await expect(when.locator('.field-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Stapel starten' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  const expected = await page.evaluate(() => new Date(2030, 1, 3, 9, 30).toISOString());
  await expect.poll(async () => (await rpc<{ scheduled_for: string | null }[]>(host, 'batches.list'))[0]?.scheduled_for).toBe(expected);
  // Changing it starts from the time it has, written the same way.
  await page.getByRole('button', { name: 'Zeit ändern' }).click();
  const change = page.getByRole('group', { name: 'Starten um' });
  await expect(change.getByLabel('Datum')).toHaveValue('03.02.2030');
  await expect(change.getByLabel('Uhrzeit')).toHaveValue('09:30');

  // Redaction takes kinds by their German names; the codes are not shown.
  await page.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/new';
  });
  await page.getByRole('radio', { name: /^Aufnahmen transkribieren/ }).check();
  const kinds = page.getByRole('group', { name: 'Personenbezogene Daten schwärzen (optional)' });
  await expect(kinds.getByRole('checkbox')).toHaveCount(5);
  await kinds.getByRole('checkbox', { name: 'Telefonnummern' }).check();
  await expect(kinds.getByRole('checkbox', { name: 'Kartennummern' })).not.toBeChecked();
  expect(await kinds.innerText()).not.toMatch(/cards|phones|dates-of-birth|emails|\ball\b/);
  await expect(page.getByTestId('phone-country')).toBeVisible();
});
