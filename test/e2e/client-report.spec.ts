// Clients and their keys in the window: two clients' channel keys added on the Keys screen (each
// with its client and its own request limit), a batch sent with each one picked in New batch,
// the Costs screen splitting spend by client (chart and table), and a client's monthly statement
// as a printable page and as CSV.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, openApp, goTo, shot } from './fixtures';
import { batchCard, allOf } from './helpers/batch-card';

test('two clients’ keys, a batch on each, spend by client, and a client’s statement printed and downloaded', async ({
  sandbox,
  launch,
  page,
  work,
}, testInfo) => {
  // No keys in the host's environment: batches send with the keys typed in below.
  const host = await launch();
  const acme = await sandbox.admin.createKey('ACME GmbH', 'channel');
  const globex = await sandbox.admin.createKey('Globex', 'channel');
  const suffix = Date.now().toString(36);
  const acmeLabel = `acme-${suffix}`;
  const globexLabel = `globex-${suffix}`;

  await openApp(page, host);
  await goTo(page, 'Keys & rates');
  const addForm = page.getByRole('form', { name: 'Add a key' });
  for (const [label, clientName, secret, rpm] of [
    [acmeLabel, 'ACME GmbH', acme.key, '600'],
    [globexLabel, 'Globex', globex.key, ''],
  ] as const) {
    await addForm.getByLabel('Kind').selectOption('channel');
    await addForm.getByLabel('Label').fill(label);
    await addForm.getByLabel('Client (optional)').fill(clientName);
    await addForm.getByLabel('Request limit per minute (optional)').fill(rpm);
    await addForm.getByLabel('Secret key').fill(secret);
    await addForm.getByRole('button', { name: 'Add key' }).click();
    await expect(addForm.getByTestId('done-note')).toHaveText(`Added the key "${label}" (ends in ${secret.slice(-4)}).`);
  }
  const keysTable = page.getByRole('region', { name: 'Keys' }).getByRole('table');
  await expect(keysTable.getByRole('row', { name: new RegExp(acmeLabel) })).toContainText('600/min');
  // Globex's limit set afterwards, in place.
  await page.getByRole('button', { name: `Edit key ${globexLabel}` }).click();
  const edit = page.getByRole('form', { name: `Edit key ${globexLabel}` });
  await edit.getByLabel('Request limit per minute').fill('1200');
  await edit.getByRole('button', { name: 'Save' }).click();
  // The edit row closes once saved; until then it is a second row naming the key.
  await expect(edit).toHaveCount(0);
  await expect(keysTable.getByRole('row', { name: new RegExp(globexLabel) })).toContainText('1200/min');
  await expect(keysTable.getByRole('row', { name: new RegExp(globexLabel) })).toContainText('default');
  await shot(page, 'keys-two-clients', testInfo);

  // One batch per client, each with its key picked in New batch.
  const runBatch = async (label: string, name: string, rows: number, area: string): Promise<void> => {
    await goTo(page, 'New batch');
    await page.getByRole('radio', { name: /^Send messages/ }).check();
    // Each client's own customers (the same message to the same person is never sent twice).
    const csv = join(work, `${name}.csv`);
    writeFileSync(csv, `to,text\n${Array.from({ length: rows }, (_, i) => `+447946${area}${String(i).padStart(4, '0')},${name}: hello ${i}`).join('\n')}\n`);
    await page.getByLabel('Files to add').setInputFiles(csv);
    await page.getByLabel('Key', { exact: true }).selectOption(label);
    await page.getByLabel('Name (optional)').fill(name);
    const estimate = page.getByRole('region', { name: 'Estimate' });
    await expect(estimate.locator('dt', { hasText: /^Items$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText(String(rows));
    await page.getByRole('button', { name: 'Start batch' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const card = batchCard(page);
    await expect(card).toContainText(`key ${label}`);
    await expect(card.getByText(allOf(rows))).toBeVisible({ timeout: 20_000 });
  };
  await runBatch(acmeLabel, 'ACME November notice', 6, '01');
  await runBatch(globexLabel, 'Globex reminders', 4, '02');
  // The API saw each client's messages under that client's key.
  const ledger = await sandbox.admin.ledger();
  expect(ledger.filter((d) => d.key_id === acme.id)).toHaveLength(6);
  expect(ledger.filter((d) => d.key_id === globex.id)).toHaveLength(4);

  await goTo(page, 'Costs');
  const byClient = page.getByRole('region', { name: 'By client' });
  const table = byClient.getByRole('table');
  await expect(table.getByRole('row', { name: /ACME GmbH/ })).toContainText('6');
  await expect(table.getByRole('row', { name: /Globex/ })).toContainText('4');
  await expect(byClient.getByRole('img', { name: /Spend by client/ })).toBeVisible();
  await shot(page, 'costs-by-client', testInfo);

  // ACME's statement for this month: a printable page.
  await table.getByRole('link', { name: /^Statement of ACME GmbH/ }).click();
  await expect(page).toHaveURL(/#\/costs\/statement\/\d{4}-\d{2}\/ACME%20GmbH$/);
  await expect(page.getByRole('heading', { level: 1, name: 'ACME GmbH' })).toBeVisible();
  const lines = page.getByRole('table').getByRole('row');
  await expect(lines).toHaveCount(3); // header, one batch, total
  await expect(lines.nth(1)).toContainText('ACME November notice');
  await expect(lines.nth(1)).toContainText('6 messages');
  await shot(page, 'statement-acme', testInfo);
  // Printed: the statement alone (no navigation), and it renders as a PDF page.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeHidden();
  await shot(page, 'statement-acme-print', testInfo);
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await page.emulateMedia({ media: 'screen' });

  // And as CSV: the same line, cost exact to 1/10,000 EUR.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^statement-ACME-GmbH-\d{4}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) ?? '', 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('by,group,label,first_day,last_day,batches,items,units,unit,cost_eur');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toMatch(/^batch,[^,]+,ACME November notice,\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2},1,6,6,messages,\d+\.\d{4}$/);
});
