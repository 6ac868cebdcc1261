// The engine against APIs and proxies that misbehave: waits in the past or far future, endless
// 429s, bodies that trickle or never come, HTML pages with status 200, huge bodies, and servers
// that echo the key back. Each case failed (hung, stormed, billed or leaked) before its fix.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import type { RunnerConfig } from '../../src/main/engine/queue/runner';
import type { ApiTarget } from '../../src/main/engine/api/target';
import { channelOk, json, startHostileServer, type Answer, type HostileServer } from '../helpers/hostile-server';
import { tempDir } from '../helpers/temp-dir';
import { jobsOf, noKeychain, TEST_CONFIG, writeMessagesCsv } from './harness';

const KEY = 'ck_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

interface Rig {
  dir: string;
  engine: Engine;
  server: HostileServer;
  /** Creates a channel batch of n rows and runs it to the end (or until aborted). */
  runBatch(n: number, signal?: AbortSignal): Promise<string>;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c();
});

async function rig(answer: Answer, config: Partial<RunnerConfig> = {}): Promise<Rig> {
  const t = tempDir('batchdesk-hostile-');
  const server = await startHostileServer(answer);
  const merged: RunnerConfig = {
    ...TEST_CONFIG,
    ...config,
    backoff: { ...TEST_CONFIG.backoff, ...config.backoff },
    serverWait: { ...TEST_CONFIG.serverWait, ...config.serverWait },
    deadline: { ...TEST_CONFIG.deadline, ...config.deadline },
  };
  const engine = Engine.open({ dataDir: t.path, secrets: noKeychain, env: { BATCHDESK_CHANNEL_KEY: KEY }, config: merged });
  open.push(async () => {
    engine.close();
    await server.close();
    t.cleanup();
  });
  const target: ApiTarget = { baseUrl: server.url, sandbox: false, resolveKey: (kind) => engine.keys.resolve(kind) };
  return {
    dir: t.path,
    engine,
    server,
    async runBatch(n, signal) {
      const csv = await writeMessagesCsv(t.path, n, `m-${Date.now()}.csv`);
      const id = (await engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
      await engine.run(target, { batchIds: [id], start: [id], signal });
      return id;
    },
  };
}

/** Every place a secret could be stored or shown, as one string. */
function everythingStored(engine: Engine, dir: string, id: string): string {
  const parts: string[] = [JSON.stringify(engine.summary(id))];
  for (const t of ['jobs', 'attempts', 'batch_events', 'job_events', 'batches']) {
    parts.push(JSON.stringify(engine.db.prepare(`SELECT * FROM ${t}`).all()));
  }
  const logs = join(dir, 'logs');
  for (const f of readdirSync(logs)) parts.push(readFileSync(join(logs, f), 'utf8'));
  return parts.join('\n');
}

describe('server-given waits are clamped', () => {
  it('a Retry-After date in the past does not become a retry storm; 429s have their own budget, then the batch pauses', async () => {
    const r = await rig((_q, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), {
      serverWait: { minMs: 20, inlineMaxMs: 60_000, maxMs: 86_400_000, rateLimitedBudget: 5, rateLimitedCapMs: 40 },
    });
    const started = Date.now();
    const id = await r.runBatch(3);
    // Before: thousands of requests in seconds, forever. Now: at most the budget per row, each at least minMs apart.
    expect(r.server.requests.length).toBeLessThanOrEqual(3 * 5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 20);
    const s = r.engine.summary(id);
    expect(s.status).toBe('paused');
    expect(s.pause?.kind).toBe('rate_limited');
    expect(s.pause?.reason).toMatch(/429.*5 times in a row.*Lower the request limit/);
    // Nothing was used up or lost: the rows wait in the queue for a resume.
    expect(jobsOf(r.engine, id).every((j) => ['queued', 'retry_wait'].includes(j.state) && j.tries === 0)).toBe(true);
  });

  it('Retry-After: 999999 pauses the batch with the time it resumes (clamped), instead of parking a job for 11 days', async () => {
    const r = await rig((_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '999999' }));
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    const before = Date.now();
    const id = await r.runBatch(2);
    process.off('warning', onWarning);
    const s = r.engine.summary(id);
    expect(s.pause?.kind).toBe('server_wait');
    expect(s.pause?.reason).toMatch(/asked to wait until .* waits at most 24 hours/);
    const until = Date.parse(s.pause?.until ?? '');
    expect(until - before).toBeGreaterThan(23 * 3_600_000);
    expect(until - before).toBeLessThanOrEqual(24 * 3_600_000 + 5_000);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    expect(r.server.requests.length).toBeLessThanOrEqual(2);
  });

  it('a huge retry-after-ms is clamped the same way; resuming early tries again at once', async () => {
    let n = 0;
    const r = await rig((q, res) => (++n <= 1 ? json(res, 503, { error: { code: 'busy' } }, { 'retry-after-ms': '99999999999999999' }) : channelOk(q, res)));
    const id = await r.runBatch(1);
    expect(r.engine.summary(id).pause?.kind).toBe('server_wait');
    r.engine.resume(id);
    const target: ApiTarget = { baseUrl: r.server.url, sandbox: false, resolveKey: (k) => r.engine.keys.resolve(k) };
    await r.engine.run(target, { batchIds: [id] });
    expect(r.engine.summary(id).status).toBe('done');
  });
});

describe('requests have an overall deadline', () => {
  it('a body that trickles one byte at a time fails at the deadline instead of hanging the run', async () => {
    const r = await rig(
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(t));
      },
      { deadline: { baseMs: 400, uploadBytesPerSecond: 1_000_000 }, backoff: { baseMs: 5, capMs: 10, maxTries: 2 } },
    );
    const started = Date.now();
    const id = await r.runBatch(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    const [job] = jobsOf(r.engine, id);
    expect(job?.state).toBe('failed');
    expect(job?.error_message).toMatch(/no complete answer within 0 s|no complete answer within/);
  });

  it('while an answer is slow to come, the batch says it is waiting for the API', async () => {
    const r = await rig(() => undefined /* never answers */, { slowAnswerMs: 200, deadline: { baseMs: 60_000, uploadBytesPerSecond: 1_000_000 } });
    const ac = new AbortController();
    const running = r.runBatch(2, ac.signal);
    let seen: string | null = null;
    for (let i = 0; i < 100 && seen === null; i++) {
      await new Promise((res) => setTimeout(res, 50));
      const b = r.engine.summaries()[0];
      seen = b?.waiting?.reason ?? null;
    }
    ac.abort();
    await running;
    expect(seen).toMatch(/waiting for the API to answer \(2 requests in flight, the oldest for \d+ s\)/);
  });
});

describe('a success needs the expected body', () => {
  it("a proxy's HTML page with status 200 is not a delivery: retried with the same key, then failed with the answer kept", async () => {
    const r = await rig((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const id = await r.runBatch(2);
    const jobs = jobsOf(r.engine, id);
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'failed']);
    for (const j of jobs) {
      expect(j.cost).toBeNull();
      expect(j.error_kind).toBe('bad_response');
      expect(j.raw_response).toContain('502 Bad Gateway');
      expect(j.attempts).toBe(TEST_CONFIG.backoff.maxTries);
    }
    // Every retry carried the job's one key.
    const keys = new Set(r.server.requests.map((q) => q.headers['idempotency-key']));
    expect(keys.size).toBe(2);
    expect(r.engine.summary(id).cost.spent).toBe(0);
  });

  it('a JSON 200 without the message id is not a delivery either', async () => {
    const r = await rig((_q, res) => json(res, 200, { ok: true }));
    const id = await r.runBatch(1);
    expect(jobsOf(r.engine, id)[0]).toMatchObject({ state: 'failed', error_kind: 'bad_response' });
  });
});

describe('a server cannot fill the database', () => {
  it('keeps at most 64 KB of a 50 MB body, marked as cut', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 'x');
    const r = await rig((_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(big);
    });
    const id = await r.runBatch(4);
    for (const j of jobsOf(r.engine, id)) {
      expect(j.state).toBe('failed');
      expect((j.raw_response ?? '').length).toBeLessThan(70 * 1024);
      expect(j.raw_response).toMatch(/truncated by Batchdesk/);
    }
    r.engine.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(statSync(join(r.dir, 'batchdesk.sqlite')).size).toBeLessThan(5 * 1024 * 1024);
  });
});

describe('secrets in server text', () => {
  it('a key echoed by the server never reaches the database, the logs or the status', async () => {
    let n = 0;
    const r = await rig((q, res) => {
      n++;
      const echo = `Authorization: ${String(q.headers.authorization)}`;
      if (n === 1) return json(res, 500, { error: { code: 'upstream', message: `upstream failed; request was ${echo}` } });
      return json(res, 401, { error: { code: 'invalid_key', message: `key refused: ${echo}; key=${KEY}` } });
    });
    const id = await r.runBatch(1);
    expect(r.engine.summary(id).pause?.kind).toBe('auth');
    const all = everythingStored(r.engine, r.dir, id);
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(KEY.slice(8));
  });
});
