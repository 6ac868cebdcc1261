// The engine's own process is killed (SIGKILL) in the middle of a message batch while the browser
// host keeps serving the window: the window says the engine stopped and is restarting, the host
// starts a new engine on the same data folder, the banner goes, and the batch goes on to done with
// every row delivered once.
import { execFileSync } from 'node:child_process';
import { test, expect, openApp, messagesCsv, expectExactlyOnce } from './fixtures';
import { allOf, batchCard, finishedOf, startMessageBatch, statusOf } from './helpers/batch-card';

const ROWS = 120;

/** The host's child processes: its engine. */
function childrenOf(pid: number): number[] {
  return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

test('SIGKILL the engine process mid-batch: the window says it is restarting, then the batch finishes, each row once', async ({
  sandbox,
  host,
  page,
  work,
}) => {
  await sandbox.admin.setFaults({ latency_ms: 100 });
  await openApp(page, host);
  await startMessageBatch(page, messagesCsv(work, ROWS), 'Engine restart', ROWS);
  const card = batchCard(page);
  await expect.poll(() => finishedOf(card), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(10);

  // Every alert the window shows from now on, however briefly (a restart takes well under a second).
  await page.evaluate(() => {
    // The page's globals, typed here: the test program compiles without lib "dom".
    interface Observed {
      seenAlerts: string[];
      document: { body: unknown; querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
      MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
    }
    const w = globalThis as unknown as Observed;
    const seen: string[] = [];
    w.seenAlerts = seen;
    new w.MutationObserver(() => {
      for (const el of Array.from(w.document.querySelectorAll('[data-testid="engine-notice"]')))
        if (!seen.includes(el.textContent ?? '')) seen.push(el.textContent ?? '');
    }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
  });
  const engines = childrenOf(host.pid);
  expect(engines).toHaveLength(1);
  process.kill(engines[0] ?? 0, 'SIGKILL');

  await expect
    .poll(() => page.evaluate(() => (globalThis as unknown as { seenAlerts: string[] }).seenAlerts), { timeout: 10_000 })
    .toContainEqual(expect.stringContaining('The engine stopped unexpectedly (killed by SIGKILL); restarting it'));
  await expect.poll(() => childrenOf(host.pid).filter((p) => p !== engines[0]).length, { timeout: 20_000 }).toBe(1);
  await expect(page.getByTestId('engine-notice')).toHaveCount(0, { timeout: 20_000 });

  await sandbox.admin.setFaults({ latency_ms: 0 });
  await expect(statusOf(card)).toHaveText('Done', { timeout: 60_000 });
  await expect(card).toContainText(allOf(ROWS));
  expectExactlyOnce(await sandbox.admin.ledger(), ROWS);
});
