// A batch keeps to the API its first items went to: another API set in Settings while it was
// paused sends it nothing (it pauses again, saying why), and "Send the rest to the API set now"
// moves it on purpose. The second API is a proxy to the same sandbox, so one ledger shows that
// every message was delivered once, whichever way it went.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, openApp, messagesCsv, expectExactlyOnce } from './fixtures';
import { rpc } from './helpers/processes';
import { allOf, batchCard, countOf, finishedOf, startMessageBatch, statusOf } from './helpers/batch-card';

const ROWS = 30;

/** Another URL for the same API: passes every request on, counting them. */
async function proxyTo(target: string): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length' && k !== 'connection')) as Record<
        string,
        string
      >;
      void fetch(new URL(req.url ?? '/', target), { method: req.method ?? 'POST', headers, ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }) })
        .then(async (r) => {
          res.writeHead(
            r.status,
            Object.fromEntries([...r.headers].filter(([k]) => k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding')),
          );
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('a batch keeps to its API when Settings change, and moves only when asked', async ({ sandbox, launch, page, work }) => {
  // Slow enough (30 rows two at a time: 9 s) that Pause comes before the end on a loaded machine.
  await sandbox.admin.setFaults({ latency_ms: 600 });
  // The API comes from Settings (no --api-url at launch), as a desktop user sets it.
  const host = await launch({ apiUrl: null, env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey } });
  await rpc(host, 'settings.set', { apiUrl: sandbox.url, concurrency: 2 });
  const proxy = await proxyTo(sandbox.url);
  try {
    await openApp(page, host);
    await startMessageBatch(page, messagesCsv(work, ROWS), 'Kept API', ROWS);
    const card = batchCard(page);
    await expect.poll(() => finishedOf(card), { timeout: 15_000 }).toBeGreaterThan(0);
    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(statusOf(card)).toHaveText('Paused');
    await expect.poll(() => countOf(card, 'Running'), { timeout: 10_000 }).toBe(0);
    const sent = (await sandbox.admin.ledger()).length;
    expect(sent).toBeLessThan(ROWS);

    // Another API in Settings, then Resume: nothing goes there; the batch says why and how to go on.
    await rpc(host, 'settings.set', { apiUrl: proxy.url });
    await card.getByRole('button', { name: 'Resume' }).click();
    await expect(card.getByTestId('pause-reason')).toContainText(
      `Its first items were sent to the API at ${new URL(sandbox.url).toString()}, and this run sends to the API at ${new URL(proxy.url).toString()}`,
      { timeout: 10_000 },
    );
    await expect(statusOf(card)).toHaveText('Paused');
    expect(proxy.requests()).toBe(0);
    expect((await sandbox.admin.ledger()).length).toBe(sent);

    // Moved on purpose: the rest goes through the other URL, each message once.
    await card.getByLabel('Send the rest to the API set now').check();
    await card.getByRole('button', { name: 'Resume' }).click();
    await expect(statusOf(card)).toHaveText('Done', { timeout: 30_000 });
    await expect(card).toContainText(allOf(ROWS));
    expect(proxy.requests()).toBe(ROWS - sent);
    expectExactlyOnce(await sandbox.admin.ledger(), ROWS);
    const [summary] = await rpc<{ sent_to: string | null }[]>(host, 'batches.list');
    expect(summary?.sent_to).toBe(new URL(proxy.url).toString());
  } finally {
    await proxy.close();
  }
});
