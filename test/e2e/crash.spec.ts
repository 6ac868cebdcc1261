// The host is killed (SIGKILL, no clean shutdown) in the middle of a message batch, restarted on
// the same data folder (new port, new token), and the window shows the batch continuing to the
// end; the sandbox's ledger has every row exactly once.
import { test, expect, openApp, messagesCsv, expectExactlyOnce, shot } from './fixtures';
import { rpc } from './helpers/processes';
import { allOf, batchCard, countOf, finishedOf, startMessageBatch, statusOf } from './helpers/batch-card';

const ROWS = 150;

test('SIGKILL the host mid-batch, restart it, the batch continues to done, each row delivered once', async ({ sandbox, launch, page, work }, testInfo) => {
  const keys = { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey };
  const first = await launch({ env: keys });
  await sandbox.admin.setFaults({ latency_ms: 150 });
  const csv = messagesCsv(work, ROWS);

  await openApp(page, first);
  await startMessageBatch(page, csv, 'Crash test', ROWS);
  const card = batchCard(page);
  const batchUrl = new URL(page.url()).hash;

  // Well under way, far from done: kill it.
  await expect.poll(() => finishedOf(card), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(20);
  const exit = await first.kill();
  expect(exit.signal).toBe('SIGKILL');
  const deliveredAtKill = (await sandbox.admin.ledger()).length;
  expect(deliveredAtKill).toBeGreaterThanOrEqual(20);
  expect(deliveredAtKill).toBeLessThan(ROWS);

  // The old window says its host is gone instead of showing stale progress as live.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection to the Batchdesk host' })).toBeVisible({ timeout: 10_000 });
  await shot(page, 'crash-host-gone', testInfo);

  // Restart on the same data folder: a new port and a new token, so a new URL to open.
  const second = await launch({ env: keys });
  expect(second.port).not.toBe(first.port);
  expect(second.token).not.toBe(first.token);
  await openApp(page, second);
  await page.goto(`${second.url}/${batchUrl}`);
  const again = batchCard(page);
  await expect(again.getByRole('heading', { level: 1, name: 'Crash test' })).toBeVisible();
  await expect(statusOf(again)).toHaveText('Done', { timeout: 60_000 });
  await expect(again).toContainText(allOf(ROWS));
  expect(await countOf(again, 'Succeeded')).toBe(ROWS);
  expect(await countOf(again, 'Failed')).toBe(0);
  await shot(page, 'crash-resumed-done', testInfo);

  // The sandbox delivered every row exactly once, across the kill.
  expectExactlyOnce(await sandbox.admin.ledger(), ROWS);

  // And the engine's own history shows the interruption: items in flight at the kill were
  // resent with their stored idempotency key after the restart.
  const batches = await rpc<{ id: string; name: string }[]>(second, 'batches.list');
  const id = batches.find((b) => b.name === 'Crash test')?.id ?? '';
  const page1 = await rpc<{ rows: { id: number; attempts: number }[] }>(second, 'jobs.list', { batchId: id, offset: 0, limit: 500 });
  const retried = page1.rows.filter((r) => r.attempts > 1);
  expect(retried.length).toBeGreaterThan(0);
  const detail = await rpc<{ attemptsLog: { outcome: string }[] }>(second, 'jobs.get', { id: retried[0]?.id ?? 0 });
  expect(detail.attemptsLog.map((a) => a.outcome)).toContain('interrupted');
});
