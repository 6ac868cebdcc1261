// Keys come from the Keys screen (into the OS keychain, never the environment). The channel key is
// revoked in the sandbox mid-batch: the batch pauses with the reason in words; the key is
// replaced on the Keys screen with a new one; Resume; it finishes, every row delivered once.
import { test, expect, openApp, goTo, messagesCsv, expectExactlyOnce, shot } from './fixtures';
import { rpc } from './helpers/processes';
import { batchCard, batchRow, countOf, finishedOf, openBatchPage, startMessageBatch, statusOf } from './helpers/batch-card';

const ROWS = 60;

test('revoke the channel key mid-batch: paused with the reason, key replaced in the Keys screen, resumed, finished once', async ({
  sandbox,
  launch,
  page,
  work,
}, testInfo) => {
  // No BATCHDESK_*_KEY in the host's environment: the only keys are the ones typed in below.
  const host = await launch();
  const suffix = Date.now().toString(36);
  const apiLabel = `e2e-api-${suffix}`;
  const channelLabel = `e2e-whatsapp-${suffix}`;

  await openApp(page, host);
  await goTo(page, 'Keys & rates');
  await expect(page.getByRole('heading', { level: 1, name: 'Keys & rates' })).toBeVisible();
  const connection = page.getByRole('region', { name: 'Connection' });
  await expect(connection).toContainText(/Channel key\s*none/);

  const addForm = page.getByRole('form', { name: 'Add a key' });
  const addKey = async (kind: 'api' | 'channel', label: string, secret: string): Promise<void> => {
    await addForm.getByLabel('Kind').selectOption(kind);
    await addForm.getByLabel('Label').fill(label);
    await addForm.getByLabel('Client (optional)').fill('sandbox-demo');
    const secretInput = addForm.getByLabel('Secret key');
    await expect(secretInput).toHaveAttribute('type', 'password');
    await secretInput.fill(secret);
    await addForm.getByRole('button', { name: 'Add key' }).click();
    await expect(addForm.getByTestId('done-note')).toHaveText(`Added the key "${label}" (ends in ${secret.slice(-4)}).`);
    await expect(secretInput).toHaveValue('');
  };
  await addKey('api', apiLabel, sandbox.apiKey);
  await addKey('channel', channelLabel, sandbox.channelKey);

  const keysTable = page.getByRole('region', { name: 'Keys' }).getByRole('table');
  await expect(keysTable.getByRole('row', { name: new RegExp(apiLabel) })).toContainText(`…${sandbox.apiKey.slice(-4)}`);
  await expect(keysTable.getByRole('row', { name: new RegExp(channelLabel) })).toContainText(`…${sandbox.channelKey.slice(-4)}`);
  await expect(connection).toContainText(`${channelLabel} …${sandbox.channelKey.slice(-4)} from the OS keychain`);
  await expect(connection).toContainText(`${apiLabel} …${sandbox.apiKey.slice(-4)} from the OS keychain`);
  // The window never holds a secret: not in the page, not in what the engine answers.
  expect(await page.content()).not.toContain(sandbox.channelKey);
  expect(JSON.stringify(await rpc(host, 'keys.list'))).not.toContain(sandbox.channelKey.slice(0, -4));
  await shot(page, 'keys-with-keys', testInfo);

  // A slow batch (about 10 messages a second).
  await sandbox.admin.setFaults({ latency_ms: 200 });
  await rpc(host, 'settings.set', { concurrency: 2 });
  await startMessageBatch(page, messagesCsv(work, ROWS), 'Revoke test', ROWS);
  const card = batchCard(page);
  await expect.poll(() => finishedOf(card), { timeout: 20_000, intervals: [100] }).toBeGreaterThanOrEqual(5);

  // Revoke the channel key in the sandbox (as the provider's panel would).
  const keys = await sandbox.admin.keys();
  const oldKey = keys.find((k) => k.key === sandbox.channelKey);
  expect(oldKey).toBeDefined();
  await sandbox.admin.revokeKey(oldKey?.id ?? '');

  // The Batches screen: paused, with the reason in words.
  await goTo(page, 'Batches');
  await expect(statusOf(batchRow(page, 'Revoke test')).first()).toHaveText('Paused', { timeout: 15_000 });
  const listed = await openBatchPage(page, 'Revoke test');
  await expect(statusOf(listed)).toHaveText('Paused');
  const reason = listed.getByTestId('pause-reason');
  // A stored key is named with the answer's status; the environment's key is not named.
  await expect(reason).toContainText(/Paused: the API refused the key (\(|"[^"]+" \(HTTP 40[13]\): )revoked, wrong or of the wrong kind/);
  await expect(reason).toContainText(/revoked/i);
  await expect(reason).toContainText(/key/);
  await expect.poll(() => countOf(listed, 'Running'), { timeout: 10_000 }).toBe(0);
  const deliveredBefore = (await sandbox.admin.ledger()).length;
  expect(deliveredBefore).toBeLessThan(ROWS);
  expect(await finishedOf(listed)).toBe(deliveredBefore);
  await shot(page, 'batches-paused-auth', testInfo);

  // Replace the channel key on the Keys screen with a new one from the sandbox's admin API.
  const fresh = await sandbox.admin.createKey('sandbox-demo', 'channel');
  await goTo(page, 'Keys & rates');
  await page.getByRole('button', { name: `Replace key ${channelLabel}` }).click();
  const replaceForm = page.getByRole('form', { name: `Replace key ${channelLabel}` });
  await expect(replaceForm.getByLabel('New secret key')).toHaveAttribute('type', 'password');
  await replaceForm.getByLabel('New secret key').fill(fresh.key);
  await replaceForm.getByRole('button', { name: 'Save new key' }).click();
  await expect(page.getByRole('region', { name: 'Keys' }).getByRole('status').filter({ hasText: 'Replaced' })).toHaveText(
    `Replaced the key "${channelLabel}" (ends in ${fresh.key.slice(-4)}).`,
  );
  await expect(keysTable.getByRole('row', { name: new RegExp(channelLabel) })).toContainText(`…${fresh.key.slice(-4)}`);
  await expect(connection).toContainText(`${channelLabel} …${fresh.key.slice(-4)} from the OS keychain`);

  // Resume from the Batches screen; it finishes.
  await goTo(page, 'Batches');
  await openBatchPage(page, 'Revoke test');
  await batchCard(page, 'Revoke test').getByRole('button', { name: 'Resume' }).click();
  await expect(statusOf(batchCard(page, 'Revoke test'))).toHaveText('Done', { timeout: 30_000 });
  expect(await countOf(batchCard(page, 'Revoke test'), 'Succeeded')).toBe(ROWS);

  const ledger = await sandbox.admin.ledger();
  expectExactlyOnce(ledger, ROWS);
  // Before the revocation with the old key, after the replacement with the new one, never both for a row.
  expect(ledger.filter((d) => d.key_id === oldKey?.id)).toHaveLength(deliveredBefore);
  expect(ledger.filter((d) => d.key_id === fresh.id)).toHaveLength(ROWS - deliveredBefore);
});
