// Privacy in the window (issue 44): a transcribe batch made on New batch with "Redact personal
// data: all" and the stored copy redacted too; its job dialog counts what was taken out (kind and
// count, never the value) and shows none of it. A watched folder added with redaction and a
// retention rule (deleting the user's own files, with its warning) lists its rules. Forget a person
// on Keys & rates, beside the retention log with the default rule. axe on each screen changed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, dropFiles, shot } from './fixtures';
import { rpc } from './helpers/processes';
import { encodeWav } from '../../src/sandbox/wav';

/** What the caller said, as the sandbox's transcription writes it (a recording's script). */
const SCRIPT =
  'Thanks for calling. My name is Ada Lovelace. My card number is 4111 1111 1111 1111 and the IBAN is DE89 3704 0044 0532 0130 00. ' +
  'Call me back on plus four four two oh seven nine four six oh nine five eight. ' +
  'My e-mail is john.smith@example.com and I was born on 12.03.1980.';
const SECRETS = ['4111 1111 1111 1111', 'DE89 3704 0044 0532 0130 00', 'john.smith@example.com', '12.03.1980', 'four four two oh seven'];

async function noSeriousAxe(page: Page, what: string): Promise<void> {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`),
    what,
  ).toEqual([]);
}

test('privacy: redaction counts in the job dialog, a watched folder with its rules, forget a person', async ({ host, page, work }, testInfo) => {
  const calls = join(work, 'calls');
  mkdirSync(calls);
  const recording = join(calls, 'call-ada.wav');
  writeFileSync(recording, encodeWav(new Int16Array(8000), 8000, SCRIPT));

  // New batch: transcribe with every kind redacted, the stored copy too.
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [recording]);
  const kinds = page.getByRole('group', { name: 'Redact personal data (optional)' });
  for (const kind of ['Card numbers', 'IBANs', 'Phone numbers', 'Email addresses', 'Dates of birth']) await kinds.getByRole('checkbox', { name: kind }).check();
  await page.getByLabel('Redact the stored copy too').selectOption('yes');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  const grid = page.getByRole('grid', { name: 'Jobs' });
  await grid.getByRole('row').filter({ hasText: 'call-ada.wav' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const counts = dialog.getByTestId('redacted-stored');
  for (const [placeholder, kind] of [
    ['[CARD]', 'cards'],
    ['[IBAN]', 'iban'],
    ['[PHONE]', 'phones'],
    ['[EMAIL]', 'emails'],
    ['[DOB]', 'dates-of-birth'],
  ] as const)
    await expect(counts.getByRole('listitem').filter({ hasText: `× ${placeholder} (${kind}) in text` })).toHaveText(/^\d+ × /);
  await expect(dialog.getByRole('heading', { name: /^Redacted \(\d+\)$/ })).toBeVisible();
  const shown = (await dialog.innerText()).toLowerCase();
  for (const s of SECRETS) expect(shown, `the dialog shows no ${s}`).not.toContain(s.toLowerCase());
  expect(shown).toContain('[card]');
  await shot(page, 'privacy-job-dialog', testInfo);
  await noSeriousAxe(page, 'job dialog');
  await page.keyboard.press('Escape');

  // A watched folder with redaction and retention, deleting the user's own files after success.
  const folder = join(work, 'calls in');
  mkdirSync(folder);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watch folders', exact: true }).click();
  const form = page.getByRole('region', { name: 'Watch a folder' });
  await form.getByLabel('Folder').fill(folder);
  await form.getByLabel('Do with each file').selectOption('transcribe');
  const watchKinds = form.getByRole('group', { name: 'Redact personal data (optional)' });
  await watchKinds.getByRole('checkbox', { name: 'Card numbers' }).check();
  await watchKinds.getByRole('checkbox', { name: 'Phone numbers' }).check();
  await form.getByLabel('Redact the stored copy too').selectOption('yes');
  await form.getByLabel('Delete files after (days, optional)').fill('30');
  await form.getByLabel('Drop results after (days, optional)').fill('x');
  await form.getByRole('button', { name: 'Watch folder' }).click();
  // A bad period names its field and the rule; nothing is watched.
  await expect(form.getByRole('alert')).toContainText('Drop results after (days, optional): a retention period is a whole number of days');
  expect(await rpc<unknown[]>(host, 'watch.list')).toEqual([]);
  await form.getByLabel('Drop results after (days, optional)').fill('90');
  const originals = form.getByRole('checkbox', { name: 'Delete originals after success' });
  await expect(originals).toHaveAccessibleDescription(/^Warning: this deletes your own files in this folder/);
  await originals.check();
  await form.getByRole('button', { name: 'Watch folder' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Watching ${folder}` })).toBeVisible();
  const row = page.getByTestId('watch-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('watch-privacy')).toHaveText(
    'redacts cards, phones (stored copy too) · files deleted after 30 days · results dropped after 90 days · originals deleted after success',
  );
  // Kept by the service, so a reload (and the CLI's rules) see the same.
  const [watch] = await rpc<{ keepFilesDays: number | null; keepResultsDays: number | null; deleteOriginals: boolean; redact: string[] | null }[]>(
    host,
    'watch.list',
  );
  expect(watch).toMatchObject({ keepFilesDays: 30, keepResultsDays: 90, deleteOriginals: true, redact: ['cards', 'phones'] });
  await shot(page, 'privacy-watch-folders', testInfo);
  await noSeriousAxe(page, 'watch folders');

  // Keys & rates: the retention log with the default rule, and Forget a person.
  await goTo(page, 'Keys & rates');
  const retention = page.getByRole('region', { name: 'Retention log' });
  await expect(retention.getByTestId('retention-default')).toContainText('files Batchdesk wrote are kept; result texts are kept');
  await expect(retention).toContainText('Retention has deleted nothing in this data folder yet.');

  const forget = page.getByRole('region', { name: 'Forget a person' });
  await forget.getByLabel('Phone number, e-mail address or name').fill('Ada Lovelace');
  await forget.getByRole('button', { name: 'Find' }).click();
  await expect(forget.getByRole('status')).toContainText('Found in 1 job(s):');
  await forget.getByRole('button', { name: 'Forget them everywhere' }).click();
  await expect(forget.getByRole('status')).toContainText('Forgotten: 1 job(s) scrubbed.');
  await expect(forget.getByRole('status')).not.toContainText('Ada Lovelace');
  // Search holds no trace of the name now; what was said around it still is found.
  expect((await rpc<{ hits: unknown[] }>(host, 'search.query', { query: 'Lovelace' })).hits).toEqual([]);
  expect((await rpc<{ hits: unknown[] }>(host, 'search.query', { query: 'calling' })).hits.length).toBeGreaterThan(0);
  await shot(page, 'privacy-keys', testInfo);
  await noSeriousAxe(page, 'keys & rates');
});
