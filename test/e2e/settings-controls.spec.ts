// The window's own controls for what only the command line did (issues 42 and 44): on Keys & rates
// an opt-out list is imported from a chosen CSV and a dropped text file (counts, and each refused
// row with its cause); the default retention rule is set, "Show what would be deleted" lists an
// export past its period (what, size, rule) and "Delete now", confirmed, deletes it and logs it;
// the phone country is chosen from a list of countries, and New batch's redaction hint links to it.
// No shell command is shown anywhere on the way.
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, openApp, goTo, dropFiles, messagesCsv, shot } from './fixtures';
import { createBatch, rpc, waitForBatch } from './helpers/processes';

const DAY_MS = 86_400_000;

test('settings controls: opt-out import, retention rule with dry run and delete, phone country', async ({ host, page, work }, testInfo) => {
  test.setTimeout(240_000);
  await openApp(page, host);
  await goTo(page, 'Keys & rates');

  // Opt-outs: a CSV chosen with the file picker.
  const optOuts = page.getByRole('region', { name: 'Opt-outs' });
  const csv = join(work, 'unsubscribed.csv');
  writeFileSync(csv, 'name;phone\nJo;+44 20 7946 0001\nSam;07946 0022\nAl;+442079460023\n');
  await optOuts.getByLabel('Opt-out list file').setInputFiles(csv);
  const report = optOuts.getByTestId('optout-import-report');
  await expect(report.getByText('unsubscribed.csv: 2 added, 0 already on the list, 1 refused. 2 on the list in all.')).toBeVisible();
  // Announced once, by its toast: the report itself is no live region.
  await expect(page.getByRole('status').filter({ hasText: 'unsubscribed.csv: 2 added, 0 already on the list, 1 refused. 2 on the list in all.' })).toHaveCount(
    1,
  );
  await expect(report.getByRole('list', { name: 'Refused in unsubscribed.csv' }).getByRole('listitem')).toHaveText([
    'unsubscribed.csv row 3: phone number "07946 0022" is not in international format; write it as +<country code><number>, for example +44 20 7946 0123. Not added: correct it in the file and import it again.',
  ]);
  await expect(optOuts.getByRole('row', { name: /\+442079460023 .* import unsubscribed\.csv row 4/ })).toBeVisible();
  // A list with one recipient per line, dropped: one already there, one new.
  const txt = join(work, 'more.txt');
  writeFileSync(txt, '+442079460023\nJo@Example.com\n');
  await dropFiles(page, optOuts.getByTestId('optout-drop'), [txt]);
  await expect(report.getByText('more.txt: 1 added, 1 already on the list, 0 refused. 3 on the list in all.')).toBeVisible();
  // Announced once, by its toast: the report itself is no live region.
  await expect(page.getByRole('status').filter({ hasText: 'more.txt: 1 added, 1 already on the list, 0 refused. 3 on the list in all.' })).toHaveCount(1);
  await expect(optOuts.getByRole('row', { name: /jo@example\.com .* import more\.txt line 2/ })).toBeVisible();
  await shot(page, 'settings-opt-out-import', testInfo);

  // A batch to the first three test numbers leaves the imported +442079460001 out; its export is then kept for a while.
  const id = await createBatch(host, 'channel', [messagesCsv(work, 3)], { name: 'Notice' });
  await rpc(host, 'batches.start', { id });
  await waitForBatch(host, id);
  const exported = await rpc<{ fileName: string }>(host, 'batches.export', { id, format: 'csv' });
  const exportPath = join(work, 'data', 'exports', exported.fileName);
  const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS);
  utimesSync(exportPath, threeDaysAgo, threeDaysAgo);

  // Retention: nothing is due while everything is kept.
  const rule = page.getByRole('region', { name: 'Retention rule' });
  await rule.getByRole('button', { name: 'Show what would be deleted' }).click();
  await expect(rule.getByTestId('retention-run').getByRole('status')).toHaveText("Nothing is due for deletion: no rule's period has passed for anything yet.");
  // A bad period names its field and the rule; a good one is saved and named in the log's default.
  await rule.getByLabel('Delete files Batchdesk wrote after (days)').fill('0.5');
  await rule.getByRole('button', { name: 'Save rule' }).click();
  await expect(rule.getByRole('alert')).toHaveText(
    'Delete files Batchdesk wrote after (days): a retention period is a whole number of days from 1 to 3650; leave it empty to keep everything of that kind.',
  );
  await rule.getByLabel('Delete files Batchdesk wrote after (days)').fill('1');
  await rule.getByRole('button', { name: 'Save rule' }).click();
  await expect(rule.getByRole('status').filter({ hasText: 'Rule saved.' })).toBeVisible();
  const log = page.getByRole('region', { name: 'Retention log' });
  await expect(log.getByTestId('retention-default')).toHaveText('Default rule: files Batchdesk wrote go after 1 day; result texts are kept.');

  // The dry run lists the export past its day, with its size and rule; nothing is deleted yet.
  await rule.getByRole('button', { name: 'Show what would be deleted' }).click();
  const run = rule.getByTestId('retention-run');
  await expect(run.getByRole('status')).toHaveText(/^1 item would be deleted \([\d.,]+ (B|KB) of files\); nothing has been deleted yet\.$/);
  const row = run.getByRole('row').filter({ hasText: exported.fileName });
  await expect(row.getByRole('cell').nth(0)).toHaveText(`Export: ${exportPath}`);
  await expect(row.getByRole('cell').nth(1)).toHaveText(/^[\d.,]+ (B|KB)$/);
  await expect(row.getByRole('cell').nth(2)).toHaveText('files kept 1 day (default)');
  expect(existsSync(exportPath)).toBe(true);
  await shot(page, 'settings-retention-dry-run', testInfo);
  // The new controls keep axe at no serious violation (the Keys screen is long: axe takes a while).
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // Delete now asks first; kept on "Keep them", deleted and logged on "Yes, delete now".
  await run.getByRole('button', { name: 'Delete now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 item now?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Keep them' }).click();
  expect(existsSync(exportPath)).toBe(true);
  await run.getByRole('button', { name: 'Delete now' }).click();
  await confirm.getByRole('button', { name: 'Yes, delete now' }).click();
  await expect(run.getByRole('status')).toHaveText(/^Deleted 1 item \([\d.,]+ (B|KB) of files\); it is in the retention log\.$/);
  expect(existsSync(exportPath)).toBe(false);
  await expect(log.getByRole('row').filter({ hasText: `Export: ${exportPath}` })).toContainText('files kept 1 day (default)');

  // The phone country: this host's locale (C) names none, so the window's (the browser's en-US) counts; Austria is chosen by its name.
  const settings = page.getByRole('form', { name: 'Settings' });
  const phone = settings.getByLabel('Phone country');
  await expect(phone.locator('option:checked')).toHaveText("Automatic: this window's locale (United States), as this computer's names no country");
  await expect(phone).toHaveAccessibleDescription('Redaction reads phone numbers written without a country code as numbers of this country.');
  await phone.selectOption({ label: 'Austria (AT)' });
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByTestId('done-note')).toHaveText('Settings saved. Running batches use them at once.');
  expect((await rpc<{ phoneCountry: unknown }>(host, 'settings.get')).phoneCountry).toEqual({ country: 'AT', from: 'setting' });

  // New batch's redaction hint says it, and links to the choice instead of naming a command.
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
  await page.getByRole('group', { name: 'Redact personal data (optional)' }).getByRole('checkbox', { name: 'Phone numbers' }).check();
  const hint = page.getByTestId('phone-country');
  await expect(hint).toHaveText(
    'Phone numbers without a country code are read as numbers of Austria (AT; chosen in Settings). Choose the phone country in Settings',
  );
  await expect(hint).not.toContainText('batchdesk');
  await hint.getByRole('link', { name: 'Choose the phone country in Settings' }).click();
  await expect(page).toHaveURL(/#\/keys\/phone-country$/);
  await expect(page.getByLabel('Phone country')).toBeFocused();
  await expect(page.getByLabel('Phone country').locator('option:checked')).toHaveText('Austria (AT)');
  // Keys & rates names no shell command.
  await expect(page.locator('main')).not.toContainText(/batchdesk (optout|retention|config) /);
});
