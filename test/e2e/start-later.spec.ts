// A batch created on the command line (`batchdesk batch create`, which promises nothing is sent
// until it is started) waits in the window, visibly, until the user presses Start. Opening the
// window does not send it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test, expect, openApp, messagesCsv, expectExactlyOnce, shot } from './fixtures';
import { CLI, rpc } from './helpers/processes';
import { batchCard, statusOf } from './helpers/batch-card';

test('a batch made by `batch create` waits for Start in the window, then is sent once', async ({ launch, sandbox, page, work }, testInfo) => {
  const csv = messagesCsv(work, 5);
  const created = spawnSync(
    process.execPath,
    [CLI, 'batch', 'create', 'channel', csv, '--name', 'Made on the command line', '--data-dir', join(work, 'data')],
    { encoding: 'utf8' },
  );
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toMatch(/Nothing is sent until you start it/);

  // The window opens on the same data folder: the batch is listed but not sent.
  const host = await launch({ env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey } });
  await openApp(page, host);
  const card = batchCard(page);
  await expect(statusOf(card)).toHaveText('Not started');
  await expect(card.getByTestId('not-started')).toContainText('nothing is sent until you press Start');
  await page.waitForTimeout(800);
  expect(await sandbox.admin.ledger()).toEqual([]);
  await shot(page, 'batch-not-started', testInfo);

  await card.getByRole('button', { name: 'Start' }).click();
  await expect(statusOf(card)).toHaveText('Done', { timeout: 20_000 });
  expectExactlyOnce(await sandbox.admin.ledger(), 5);
  const [b] = await rpc<{ started: boolean }[]>(host, 'batches.list');
  expect(b?.started).toBe(true);
});
