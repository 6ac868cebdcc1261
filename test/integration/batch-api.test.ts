// A batch is sent only to the API it was first sent to (api/destination.ts): a run that sends
// elsewhere (a command pasted without its --api-url, a setting changed) pauses it and sends
// nothing there; a run that sends to its API goes on by itself; `resume --switch-api` moves it.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import type { ApiTarget } from '../../src/main/engine/api/target';
import { expectLedgerExactlyOnce, jobsOf, messagesBatch, startHarness } from './harness';

/** A second API (another sandbox, with keys of its own) and a target that sends there. */
async function otherApi(): Promise<{ sb: SandboxHandle; admin: SandboxAdmin; target: ApiTarget }> {
  const sb = await startSandbox({ port: 0, seed: 2 });
  const target: ApiTarget = {
    baseUrl: new URL(sb.url).toString(),
    sandbox: false,
    resolveKey: async (kind) => ({
      secret: kind === 'api' ? sb.apiKey : sb.channelKey,
      label: `other ${kind}`,
      source: 'env',
      id: null,
      rpm: null,
      baseUrl: null,
    }),
  };
  return { sb, admin: new SandboxAdmin(sb.url, sb.adminToken), target };
}

const others: SandboxHandle[] = [];
afterEach(async () => {
  for (const sb of others.splice(0)) await sb.close();
});

/** A batch of `n` messages whose sample of `sample` went to the harness's API, and another API beside it. */
async function sampledWithAnotherApi(n: number, sample: number) {
  const h = await startHarness();
  const other = await otherApi();
  others.push(other.sb);
  const id = await messagesBatch(h, n, { sample });
  await h.run({ batchIds: [id] });
  return { h, other, id };
}

describe('the API a batch is sent to', () => {
  it('is kept: a run that sends elsewhere pauses the batch and sends nothing; one that sends there goes on', async () => {
    const { h, other, id } = await sampledWithAnotherApi(30, 5);
    const first = await h.engine.control.summary(id);
    expect(first.pause?.kind).toBe('sample');
    expect(first.sent_to).toBe(new URL(h.sb.url).toString());

    // Resumed, then run against another API (a command pasted without its --api-url).
    await h.engine.control.resume(id);
    await h.engine.run(other.target, { batchIds: [id] });
    const elsewhere = await h.engine.control.summary(id);
    expect(elsewhere.status).toBe('paused');
    expect(elsewhere.pause?.kind).toBe('api');
    expect(elsewhere.pause?.reason).toContain(`sent to the API at ${new URL(h.sb.url).toString()}, and this run sends to the API at ${other.target.baseUrl}`);
    expect(elsewhere.pause?.reason).toContain(`\`batchdesk run ${id} --api-url ${new URL(h.sb.url).toString()}\``);
    expect(elsewhere.pause?.reason).toContain(`\`batchdesk resume ${id} --switch-api\``);
    expect(elsewhere.counts.succeeded).toBe(5);
    expect(await other.admin.ledger()).toEqual([]);

    // A run that sends to its API resumes it by itself and sends the rest there, each once.
    await h.run({ batchIds: [id] });
    const done = await h.engine.control.summary(id);
    expect(done.status).toBe('done');
    expect(done.counts.succeeded).toBe(30);
    await expectLedgerExactlyOnce(h.admin, jobsOf(h.engine, id));
    expect(await other.admin.ledger()).toEqual([]);
  });

  it("moves with resume --switch-api: the rest goes to the next run's API, which the batch then keeps", async () => {
    const { h, other, id } = await sampledWithAnotherApi(20, 4);
    expect((await h.engine.control.summary(id)).counts.succeeded).toBe(4);

    expect((await h.engine.control.resume(id, { switchApi: true })).resumed).toBe(true);
    expect((await h.engine.control.summary(id)).sent_to).toBeNull();
    await h.engine.run(other.target, { batchIds: [id] });
    const moved = await h.engine.control.summary(id);
    expect(moved.status).toBe('done');
    expect(moved.sent_to).toBe(other.target.baseUrl);
    // The sample went to the first API, the other 16 to the second: none to both.
    const first = new Set((await h.admin.ledger()).map((d) => d.idempotency_key));
    const second = new Set((await other.admin.ledger()).map((d) => d.idempotency_key));
    expect([first.size, second.size]).toEqual([4, 16]);
    expect([...first].filter((k) => second.has(k))).toEqual([]);
    expect(
      jobsOf(h.engine, id)
        .map((j) => j.idempotency_key)
        .sort(),
    ).toEqual([...first, ...second].sort());
  });

  it('is recorded with its first claim (another connection sees it while the first requests are out), and a batch never sent has none', async () => {
    const h = await startHarness();
    const id = await messagesBatch(h, 3);
    expect((await h.engine.control.summary(id)).sent_to).toBeNull();
    // Between the engine and the API, a proxy that reads the batch through another connection (as
    // another process would after a crash) when each request arrives, then passes it on.
    const reader = h.openSecondEngine();
    const seen: (string | null)[] = [];
    const proxy = createServer((req, res) => {
      seen.push(reader.batches.get(id)?.api ?? null);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
        void fetch(new URL(req.url ?? '/', h.sb.url), { method: req.method ?? 'POST', headers, body: Buffer.concat(chunks) }).then(async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
    try {
      await h.engine.run({ ...h.target, baseUrl: url }, { batchIds: [id], start: [id] });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
    expect(seen).toEqual([url, url, url]);
    expect((await h.engine.control.summary(id)).status).toBe('done');
  });
});
