// Pause and resume a running message batch from the window: paused by the user, nothing more is
// sent while paused, and after Resume it finishes with every message delivered exactly once.
import { test, expect, openApp, messagesCsv, expectExactlyOnce, shot } from './fixtures';
import { rpc } from './helpers/processes';
import { allOf, batchCard, batchRow, countOf, finishedOf, openBatchPage, startMessageBatch, statusOf } from './helpers/batch-card';

const ROWS = 40;
const LATENCY_MS = 200;

test('pause and resume a running channel batch', async ({ host, sandbox, page, work }, testInfo) => {
  // Slow responses and two requests in flight: ~10 messages a second, so the batch is still running when paused.
  await sandbox.admin.setFaults({ latency_ms: LATENCY_MS });
  await rpc(host, 'settings.set', { concurrency: 2 });
  const csv = messagesCsv(work, ROWS);

  await openApp(page, host);
  await startMessageBatch(page, csv, 'Pause test', ROWS);
  const card = batchCard(page);
  await expect(statusOf(card)).toHaveText(/Running|Waiting to start/);

  await card.getByRole('button', { name: 'Pause' }).click();
  await expect(statusOf(card)).toHaveText('Paused');
  await expect(card.getByTestId('pause-reason')).toContainText(/Paused by (you|the user)\./);
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Pause' })).toHaveCount(0);

  // Items in flight finish; then nothing moves: not on screen, not in the sandbox's ledger.
  await expect.poll(() => countOf(card, 'Running'), { timeout: 10_000 }).toBe(0);
  const finished = await finishedOf(card);
  const delivered = (await sandbox.admin.ledger()).length;
  expect(finished).toBeLessThan(ROWS);
  expect(delivered).toBe(finished);
  // A quiet period several response times long: a batch that still sent would move by now.
  await page.waitForTimeout(LATENCY_MS * 8);
  expect(await finishedOf(card)).toBe(finished);
  expect(await countOf(card, 'Queued')).toBe(ROWS - finished);
  expect((await sandbox.admin.ledger()).length).toBe(delivered);
  await shot(page, 'batch-detail-paused', testInfo);

  // The Batches screen says the same, in words.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches', exact: true }).click();
  await expect(statusOf(batchRow(page, 'Pause test')).first()).toHaveText('Paused');
  // Its page: the reason, and the controls.
  const listed = await openBatchPage(page, 'Pause test');
  await expect(statusOf(listed)).toHaveText('Paused');
  await expect(listed.getByTestId('pause-reason')).toContainText(/Paused by (you|the user)\./);

  await listed.getByRole('button', { name: 'Resume' }).click();
  await expect(statusOf(listed)).toHaveText('Done', { timeout: 30_000 });
  await expect(listed).toContainText(allOf(ROWS));
  expect(await countOf(listed, 'Succeeded')).toBe(ROWS);
  await expect(listed.getByTestId('pause-reason')).toHaveCount(0);
  expectExactlyOnce(await sandbox.admin.ledger(), ROWS);
});
