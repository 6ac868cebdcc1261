// One behaviour, two stores, against APIs and proxies that misbehave: waits in the past or far
// future, endless 429s, bodies that trickle, HTML pages with status 200, huge bodies, and servers
// that echo the key back. However the API misbehaves, an item waits on it at most its budget
// (max_wait_minutes) and then fails, saying what the API kept doing. The same cases run by the local runner on SQLite
// (test/integration/hostile-api.test.ts) and by a team worker on PostgreSQL (hostile-api-pg.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';
import type { Clock } from '../../src/main/engine/clock';
import { SteppingClock } from '../helpers/stepping-clock';
import { channelOk, json, startHostileServer, type Answer, type HostileServer } from '../helpers/hostile-server';
import { TEST_CONFIG, writeMessagesCsv } from '../integration/harness';
import { made, type OpenStoreRig, type StoreRig } from './store-rig';

export const HOSTILE_KEY = 'ck_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

export interface HostileRig {
  r: StoreRig;
  server: HostileServer;
  /** Creates a channel batch of n rows and runs it to the end (or until aborted); its id. */
  runBatch(n: number, signal?: AbortSignal): Promise<string>;
}

let csvs = 0;

/** A rig whose API is a server answering as `answer` says, the channel key being HOSTILE_KEY. */
export function hostileRigs(open: OpenStoreRig): (answer: Answer, config?: Partial<RunnerConfig>, clock?: Clock) => Promise<HostileRig> {
  const servers: HostileServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  return async (answer, config = {}, clock) => {
    const server = await startHostileServer(answer);
    servers.push(server);
    const r = await open(config, { apiUrl: server.url, ...(clock ? { clock } : {}) });
    r.env.BATCHDESK_CHANNEL_KEY = HOSTILE_KEY;
    return {
      r,
      server,
      runBatch: async (n, signal) => {
        const csv = await writeMessagesCsv(r.dir, n, `m-${++csvs}.csv`);
        const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
        await r.run(id, signal);
        return id;
      },
    };
  };
}

/** A body that trickles a byte every 50 ms: 20 bytes a second. */
const trickle: Answer = (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const t = setInterval(() => res.write(' '), 50);
  res.on('close', () => clearInterval(t));
};

/** A minimum rate of 100 bytes a second over 300 ms windows, and a deadline far beyond. */
const SLOW_BODY: Partial<RunnerConfig> = { minRate: { bytesPerSecond: 100, windowMs: 300 }, deadline: { baseMs: 30_000, uploadBytesPerSecond: 1_000_000 } };

export function hostileCases(name: string, open: OpenStoreRig): void {
  describe(`hostile API conformance: ${name}`, () => {
    const rig = hostileRigs(open);

    it('a Retry-After date in the past does not become a retry storm; 429s have their own budget, then the batch pauses', async () => {
      const { r, server, runBatch } = await rig(
        (_q, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
        {
          serverWait: { minMs: 20, inlineMaxMs: 60_000, maxMs: 86_400_000, rateLimitedBudget: 5, rateLimitedCapMs: 40 },
        },
      );
      const started = Date.now();
      const id = await runBatch(3);
      // Before: thousands of requests in seconds, forever. Now: at most the budget per row, each at least minMs apart.
      expect(server.requests.length).toBeLessThanOrEqual(3 * 5);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 20);
      const s = await r.summary(id);
      expect(s.status).toBe('paused');
      expect(s.pause?.kind).toBe('rate_limited');
      expect(s.pause?.reason).toMatch(/429.*5 times in a row.*Lower the request limit/);
      // Nothing was used up or lost: the rows wait in the queue for a resume.
      expect((await r.jobs(id)).every((j) => ['queued', 'retry_wait'].includes(j.state) && j.tries === 0)).toBe(true);
    });

    it('Retry-After: 999999 pauses the batch with the time it resumes (clamped), instead of parking a job for 11 days', async () => {
      const { r, server, runBatch } = await rig((_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '999999' }));
      const warnings: string[] = [];
      const onWarning = (w: Error): void => void warnings.push(w.name);
      process.on('warning', onWarning);
      const before = Date.now();
      const id = await runBatch(2);
      // The wait was asked for somewhere in between: the clamp is checked against both ends, so a
      // slow run on a loaded machine widens the window instead of breaking the bound.
      const after = Date.now();
      process.off('warning', onWarning);
      const s = await r.summary(id);
      expect(s.pause?.kind).toBe('server_wait');
      expect(s.pause?.reason).toMatch(/asked to wait until .* waits at most 24 hours/);
      const until = Date.parse(s.pause?.until ?? '');
      expect(until - before).toBeGreaterThan(23 * 3_600_000);
      expect(until - after).toBeLessThanOrEqual(24 * 3_600_000);
      expect(warnings).not.toContain('TimeoutOverflowWarning');
      expect(server.requests.length).toBeLessThanOrEqual(2);
    });

    it('a huge retry-after-ms is clamped the same way; resuming early tries again at once', async () => {
      let n = 0;
      const { r, runBatch } = await rig((q, res) =>
        ++n <= 1 ? json(res, 503, { error: { code: 'busy' } }, { 'retry-after-ms': '99999999999999999' }) : channelOk(q, res),
      );
      const id = await runBatch(1);
      expect((await r.summary(id)).pause?.kind).toBe('server_wait');
      expect(await r.resume(id)).toBe(true);
      await r.run(id);
      expect((await r.summary(id)).status).toBe('done');
    });

    it('a body that trickles one byte at a time fails at the deadline instead of hanging the run', async () => {
      const { r, runBatch } = await rig(trickle, {
        deadline: { baseMs: 400, uploadBytesPerSecond: 1_000_000 },
        backoff: { baseMs: 5, capMs: 10, maxTries: 2 },
      });
      // The trickle never ends: without the deadline the run would hang (the test's timeout).
      const id = await runBatch(1);
      const [job] = await r.jobs(id);
      expect(job?.state).toBe('failed');
      expect(job?.error_message).toMatch(/no complete answer within/);
    });

    it('a trickle is cut by the minimum rate long before the deadline, and resent with the same key', async () => {
      // A deadline of 30 s an attempt: two attempts cut there would take a minute.
      const { r, server, runBatch } = await rig(trickle, { ...SLOW_BODY, backoff: { baseMs: 5, capMs: 10, maxTries: 2 } });
      // What cut each attempt is in the error (the minimum rate, not the deadline): no clock needed.
      const id = await runBatch(1);
      const [job] = await r.jobs(id);
      expect(job).toMatchObject({ state: 'failed', attempts: 2 });
      expect(job?.error_message).toMatch(
        /^Gave up after 2 attempts: the API kept trickling its answer, too slowly to wait for, for \d+ s \(2 attempts cut\)\. Last: Network problem: the answer came slower than 100 bytes a second \(\d+ bytes in 300 ms\)\./,
      );
      expect(new Set(server.requests.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    });

    it('an API that keeps trickling fails the item once its wait budget is spent, saying so', async () => {
      // Attempts are not what stops it here (50 allowed): the budget of 1.5 s is.
      const { r, runBatch } = await rig(trickle, { ...SLOW_BODY, backoff: { baseMs: 5, capMs: 10, maxTries: 50 }, waitBudgetMs: 1_500 });
      const id = await runBatch(1);
      const [job] = await r.jobs(id);
      expect(job?.state).toBe('failed');
      expect(job?.attempts).toBeLessThan(50);
      expect(job?.error_message).toMatch(
        /^m-\d+\.csv row 2: the API kept trickling its answer, too slowly to wait for, for \d+ s \(\d+ attempts cut\), longer than an item waits: 2 s \(setting max_wait_minutes\)\. Last: Network problem: the answer came slower than 100 bytes a second .* Check the API's status and any proxy in between; then retry the failed items \(`batchdesk retry \S+( --store URL)?`, or Retry failed in the window\): same idempotency key, nothing is done twice\. To let items wait longer: `batchdesk config set max_wait_minutes N`/,
      );
      expect((await r.summary(id)).status).toBe('done_with_failures');
    });

    it('429s with a Retry-After in 1970 are retried with growing waits until the wait budget: that item fails, its batch pauses', async () => {
      const { r, server, runBatch } = await rig(
        (_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' }),
        {
          serverWait: { minMs: 20, inlineMaxMs: 60_000, maxMs: 86_400_000, rateLimitedBudget: 1_000, rateLimitedCapMs: 80 },
          waitBudgetMs: 800,
        },
      );
      // The wait budget, not the 1,000 answers allowed, ends it: the error says which.
      const id = await runBatch(2);
      // Never a storm: each retry waits at least minMs, growing to the cap.
      expect(server.requests.length).toBeLessThanOrEqual(2 * 40);
      const jobs = await r.jobs(id);
      const failed = jobs.filter((j) => j.state === 'failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]?.error_message).toMatch(
        /^m-\d+\.csv row \d: the API kept answering 429 \(request limit reached\) for \d+ s \(\d+ answers without a result\), longer than an item waits: 1 s \(setting max_wait_minutes\)\. If another program uses the same key, lower the request limit \(in the window: Keys & rates; on the command line: `batchdesk config set rpm N`\); then retry the failed items/,
      );
      // The rest would only meet the same limit: the batch pauses, the other item waits in the queue.
      const s = await r.summary(id);
      expect(s.pause?.kind).toBe('rate_limited');
      expect(s.pause?.reason).toMatch(
        /^The API kept answering 429 \(request limit reached\) for \d+ s for .*, longer than an item waits: 1 s \(setting max_wait_minutes\); that item failed\. .*Lower the request limit .*then send the failed item again and go on: `batchdesk retry \S+( --store URL)?` \(in the window: Retry failed\)\.$/,
      );
      expect(jobs.filter((j) => ['queued', 'retry_wait'].includes(j.state))).toHaveLength(1);
    });

    it('max_wait_minutes, a setting, bounds the wait in minutes (a test clock)', async () => {
      const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
      const { r, runBatch } = await rig((_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '0' }), {}, clock);
      await r.setting('max_wait_minutes', '2');
      const id = await runBatch(1);
      const [job] = await r.jobs(id);
      // Each wait moves the test clock a minute: the third 429 comes 2 minutes after the first.
      expect(job?.state).toBe('failed');
      expect(job?.error_message).toMatch(
        /kept answering 429 \(request limit reached\) for 2 min \(3 answers without a result\), longer than an item waits: 2 min \(setting max_wait_minutes\)/,
      );
    });

    it("a proxy's HTML page with status 200 is not a delivery: retried with the same key, then failed with the answer kept", async () => {
      const { r, server, runBatch } = await rig((_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      });
      const id = await runBatch(2);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(['failed', 'failed']);
      for (const j of jobs) {
        expect(j.cost).toBeNull();
        expect(j.error_kind).toBe('bad_response');
        expect(j.raw_response).toContain('502 Bad Gateway');
        expect(j.attempts).toBe(TEST_CONFIG.backoff.maxTries);
      }
      // Every retry carried the job's one key.
      const keys = new Set(server.requests.map((q) => q.headers['idempotency-key']));
      expect(keys.size).toBe(2);
      expect((await r.summary(id)).cost.spent).toBe(0);
    });

    it('a JSON 200 without the message id is not a delivery either', async () => {
      const { r, runBatch } = await rig((_q, res) => json(res, 200, { ok: true }));
      const id = await runBatch(1);
      expect((await r.jobs(id))[0]).toMatchObject({ state: 'failed', error_kind: 'bad_response' });
    });

    it("a 200 saying the send was refused fails the item at once with the API's words, unbilled; only the sent statuses count", async () => {
      const { r, server, runBatch } = await rig((q, res) => {
        const { to, text } = JSON.parse(q.body) as { to: string; text: string };
        // Row 1 refused, row 2 queued (a sent status), row 3 refused without a reason field.
        const n = Number(/customer (\d+)/.exec(text)?.[1]) + 1;
        // Its words drive no terminal and echo no key (they are the API's, like an error's).
        if (n === 1)
          return json(res, 200, {
            id: 'msg_1',
            status: 'rejected',
            reason: `recipient ${to} has blocked this sender\u001b[2J (key ${HOSTILE_KEY})`,
            channel: 'whatsapp',
            to,
          });
        if (n === 2) return json(res, 200, { id: 'msg_2', status: 'Queued', channel: 'whatsapp', to });
        return json(res, 200, { id: 'msg_3', status: 'failed', to });
      });
      const id = await runBatch(3);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(['failed', 'succeeded', 'failed']);
      const [first, , third] = jobs;
      expect(first).toMatchObject({ error_kind: 'invalid_request', cost: null, attempts: 1, http_status: 200 });
      expect(first?.error_message).toMatch(/did not send the message: status "rejected" \(the API said: recipient \+\d+ has blocked this sender/);
      expect(first?.error_message).toMatch(/create a new batch for it/);
      expect(first?.error_message).toContain('sender\\u001b[2J (key [redacted])');
      expect(third?.error_message).toMatch(/status "failed" \(the API said: \{"id":"msg_3","status":"failed"/);
      expect(third?.attempts).toBe(1);
      // Asked once each: a refusal is an answer, not a lost request.
      expect(server.requests.length).toBe(3);
      const s = await r.summary(id);
      expect(s.counts.succeeded).toBe(1);
      expect(s.cost.spent).toBe(jobs[1]?.cost);
    });

    it('a redirect (HTTP 307) is not followed: the item fails at once, asking to check the API URL', async () => {
      const { r, server, runBatch } = await rig((_q, res) => {
        res.writeHead(307, { location: 'https://api.example.com/v1/channels/whatsapp' });
        res.end();
      });
      const id = await runBatch(1);
      const [job] = await r.jobs(id);
      expect(job).toMatchObject({ state: 'failed', error_kind: 'invalid_request', http_status: 307, attempts: 1, cost: null });
      expect(job?.error_message).toMatch(/HTTP 307 \(a redirect to https:\/\/api\.example\.com\/v1\/channels\/whatsapp\).*Check the API URL/);
      expect(server.requests.length).toBe(1);
    });

    it('keeps at most 64 KB of a 50 MB body, marked as cut', async () => {
      const big = Buffer.alloc(50 * 1024 * 1024, 'x');
      const { r, runBatch } = await rig((_q, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(big);
      });
      const id = await runBatch(4);
      for (const j of await r.jobs(id)) {
        expect(j.state).toBe('failed');
        expect((j.raw_response ?? '').length).toBeLessThan(70 * 1024);
        expect(j.raw_response).toMatch(/truncated by Batchdesk/);
      }
      expect((await r.everything()).length).toBeLessThan(5 * 1024 * 1024);
    });

    it('a key echoed by the server never reaches the database, the logs or the status', async () => {
      let n = 0;
      const { r, runBatch } = await rig((q, res) => {
        n++;
        const echo = `Authorization: ${String(q.headers.authorization)}`;
        if (n === 1) return json(res, 500, { error: { code: 'upstream', message: `upstream failed; request was ${echo}` } });
        return json(res, 401, { error: { code: 'invalid_key', message: `key refused: ${echo}; key=${HOSTILE_KEY}` } });
      });
      const id = await runBatch(1);
      const s = await r.summary(id);
      expect(s.pause?.kind).toBe('auth');
      const all = `${JSON.stringify(s)}\n${await r.everything()}`;
      expect(all).toContain('[redacted]');
      expect(all).not.toContain(HOSTILE_KEY);
      expect(all).not.toContain(HOSTILE_KEY.slice(8));
    });
  });
}
