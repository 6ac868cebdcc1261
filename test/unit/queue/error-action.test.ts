// A job that gave up quotes its last cause, never the "retrying" or "it is resent" that cause said
// while tries were left; a Retry-After in the past means the normal backoff; an item that waited
// its whole budget on a useless API fails, saying what the API kept doing.
import { describe, expect, it } from 'vitest';
import { decideError } from '../../../src/main/engine/queue/error-action';
import { DEFAULT_BACKOFF } from '../../../src/main/engine/queue/backoff';
import { DEFAULT_SERVER_WAIT } from '../../../src/main/engine/queue/server-wait';
import { networkFailure } from '../../../src/main/engine/queue/job-request';
import { NetworkError } from '../../../src/main/engine/api/http-client';
import { engineError } from '../../../src/shared/errors';
import { troubleOf } from '../../../src/main/engine/queue/wait-budget';
import { pauseSentence } from '../../../src/shared/batch-reason';

const policy = { backoff: { ...DEFAULT_BACKOFF, maxTries: 3 }, serverWait: DEFAULT_SERVER_WAIT, waitBudgetMs: 10 * 60_000 };
const batch = { id: 'b1', key_id: null };
const decide = (tries: number, err: ReturnType<typeof engineError>) =>
  decideError({ source: 'a.csv row 2', tries, limited_tries: 0 }, batch, err, policy, () => 0.5, 0, null);

describe('error decisions', () => {
  const causes = [
    engineError('transient', 'The API had a temporary problem (HTTP 503); retrying.', { httpStatus: 503 }),
    networkFailure(new NetworkError('socket hang up', true)),
  ];

  it('retries while tries are left', () => {
    for (const err of causes) expect(decide(1, err).kind).toBe('retry');
  });

  it('giving up quotes the last cause only, never a retry that will not happen', () => {
    for (const err of causes) {
      const d = decide(3, err);
      expect(d.kind).toBe('fail');
      if (d.kind === 'fail') {
        expect(d.err.message).toMatch(
          /^Gave up after 3 attempts\. Last: (The API had a temporary problem \(HTTP 503\)|Network problem: socket hang up\. The API may have received the item)\. Retry the failed items later \(Retry failed in the window, or `batchdesk retry b1`\): same idempotency key, nothing is done twice\.$/,
        );
        expect(d.err.message).not.toMatch(/retrying|resent/i);
      }
    }
  });

  it('a pause for the key or its cap ends with the command that resumes the batch (a team names its store)', () => {
    const quota = engineError('quota', "The API key's spending cap is reached. Raise the cap in the panel (or top up).", { httpStatus: 402 });
    const here = decide(1, quota);
    expect(here.kind === 'pause' && pauseSentence(here.reason)).toBe(
      "The API key's spending cap is reached. Raise the cap in the panel (or top up). Then resume it: `batchdesk resume b1` (in the window: Resume).",
    );
    const team = decideError(
      { source: 'a.csv row 2', tries: 1, limited_tries: 0 },
      batch,
      quota,
      policy,
      () => 0.5,
      0,
      null,
      'batchdesk resume b1 --store URL',
    );
    expect(team.kind === 'pause' && pauseSentence(team.reason)).toMatch(
      /\(or top up\)\. Then resume it: `batchdesk resume b1 --store URL` \(in the window: Resume\)\.$/,
    );
    const auth = decide(1, engineError('auth', 'The API key was refused (HTTP 401).', { httpStatus: 401 }));
    expect(auth.kind === 'pause' && pauseSentence(auth.reason)).toBe(
      'The API key was refused (HTTP 401). Then resume it: `batchdesk resume b1` (in the window: Resume).',
    );
  });

  it('a pause after too many 429s names the limit to lower and the command that resumes the batch', () => {
    const limited = engineError('rate_limited', 'HTTP 429', { httpStatus: 429 });
    const d = decideError({ source: 'a.csv row 2', tries: 0, limited_tries: policy.serverWait.rateLimitedBudget }, batch, limited, policy, () => 0.5, 0, 60);
    expect(d.kind === 'pause' && pauseSentence(d.reason)).toMatch(
      /`batchdesk config set rpm N`\), then resume it: `batchdesk resume b1` \(in the window: Resume\)\.$/,
    );
  });

  it('a Retry-After of 0 or in the past gets the normal backoff, not a fixed second repeated', () => {
    const past = engineError('transient', 'The API had a temporary problem (HTTP 503); retrying.', { httpStatus: 503, retryAfterMs: 0 });
    // Try 3 of a 1 s base: up to 4 s, half of it with random() = 0.5 (the old answer: 1 s and a bit).
    const d = decideError(
      { source: 'a.csv row 2', tries: 3, limited_tries: 0 },
      batch,
      past,
      { ...policy, backoff: { ...DEFAULT_BACKOFF, maxTries: 8 } },
      () => 0.5,
      0,
      null,
    );
    expect(d).toMatchObject({ kind: 'retry', runAt: 2_000 });
    // 429s grow their wait the same way (1 s, 2 s, 4 s ... with jitter), from the 429s in a row.
    const limited = engineError('rate_limited', 'Request limit of the API key reached (HTTP 429); slowing down and retrying.', {
      httpStatus: 429,
      retryAfterMs: 0,
    });
    const waits = [1, 4, 6].map((n) => decideError({ source: 'a.csv row 2', tries: 0, limited_tries: n - 1 }, batch, limited, policy, () => 0.5, 0, null));
    expect(waits.map((w) => w.kind === 'retry' && w.runAt)).toEqual([1_000, 6_000, 24_000]);
  });

  describe('the wait budget', () => {
    const limited = engineError('rate_limited', 'Request limit of the API key reached (HTTP 429); slowing down and retrying.', { httpStatus: 429 });
    const trickled = networkFailure(new NetworkError('the answer came slower than 256 bytes a second (20 bytes in 20 s)', true, 'slow_body'));
    const silent = networkFailure(new NetworkError('timed out waiting for the server', true, 'no_answer'));
    const down = engineError('transient', 'The API had a temporary problem (HTTP 503); retrying.', { httpStatus: 503 });
    // Just short of 10 minutes after the first attempt: any retry would start past the budget.
    const now = 10 * 60_000 - 200;
    const after = (err: ReturnType<typeof engineError>, since: number) =>
      decideError(
        { source: 'a.csv row 2', tries: 1, limited_tries: 3, waited: { since, answers: 7, last: troubleOf(err) } },
        batch,
        err,
        { ...policy, backoff: { ...DEFAULT_BACKOFF, maxTries: 50 } },
        () => 0.5,
        now,
        60,
      );

    it('retries while the retry starts within the budget', () => {
      for (const err of [limited, trickled, silent, down]) expect(after(err, now - 60_000).kind).toBe('retry');
    });

    it('429s: the item fails, saying the API kept answering 429 and what to do, and its batch pauses', () => {
      const d = after(limited, 0);
      expect(d.kind).toBe('fail_and_pause');
      if (d.kind !== 'fail_and_pause') return;
      expect(d.err.message).toBe(
        'a.csv row 2: the API kept answering 429 (request limit reached) for 10 min (7 answers without a result), longer than an item waits: 10 min (setting max_wait_minutes). If another program uses the same key, lower the request limit (in the window: Keys & rates; on the command line: `batchdesk config set rpm N`); then retry the failed items (`batchdesk retry b1`, or Retry failed in the window): same idempotency key, nothing is done twice. To let items wait longer: `batchdesk config set max_wait_minutes N` (in the window: Keys & rates, Settings).',
      );
      expect(pauseSentence(d.reason)).toMatch(
        /^The API kept answering 429 \(request limit reached\) for 10 min for a\.csv row 2, longer than an item waits: 10 min \(setting max_wait_minutes\); that item failed\. The key's request limit is probably lower than Batchdesk's \(60 per minute\)/,
      );
      expect(pauseSentence(d.reason)).toMatch(/then send the failed item again and go on: `batchdesk retry b1` \(in the window: Retry failed\)\.$/);
    });

    it('a trickle, no answer, a failing API: the item fails with what the API kept doing, its last cause and what to do', () => {
      const words = [
        [
          trickled,
          /^a\.csv row 2: the API kept trickling its answer, too slowly to wait for, for 10 min \(7 attempts cut\), longer than an item waits: 10 min \(setting max_wait_minutes\)\. Last: Network problem: the answer came slower than 256 bytes a second \(20 bytes in 20 s\)\. The API may have received the item\. Check the API's status and any proxy in between; then retry/,
        ],
        [
          silent,
          /^a\.csv row 2: the API did not answer in time for 10 min \(7 attempts\), longer than .* Last: Network problem: timed out waiting for the server\. The API may have received the item\. Check the API's status and the API URL; then retry/,
        ],
        [
          down,
          /^a\.csv row 2: the API kept failing for 10 min \(7 attempts without a result\), longer than .* Last: The API had a temporary problem \(HTTP 503\)\. Check the API's status; then retry/,
        ],
      ] as const;
      for (const [err, re] of words) {
        const d = after(err, 0);
        expect(d.kind).toBe('fail');
        if (d.kind === 'fail') expect(d.err.message).toMatch(re);
      }
    });

    it('giving up after the last attempt says the API kept trickling (or not answering), not only the last cause', () => {
      const d = decideError(
        { source: 'a.csv row 2', tries: 3, limited_tries: 0, waited: { since: 0, answers: 3, last: 'slow_answer' } },
        batch,
        trickled,
        policy,
        () => 0.5,
        90_000,
        null,
      );
      expect(d.kind === 'fail' && d.err.message).toMatch(
        /^Gave up after 3 attempts: the API kept trickling its answer, too slowly to wait for, for 2 min \(3 attempts cut\)\. Last: Network problem: the answer came slower than 256 bytes a second/,
      );
      const n = decideError(
        { source: 'a.csv row 2', tries: 3, limited_tries: 0, waited: { since: 0, answers: 3, last: 'no_answer' } },
        batch,
        silent,
        policy,
        () => 0.5,
        360_000,
        null,
      );
      expect(n.kind === 'fail' && n.err.message).toMatch(
        /^Gave up after 3 attempts: the API did not answer in time for 6 min \(3 attempts\)\. Last: Network problem: timed out/,
      );
    });

    it('a team names its store in the commands', () => {
      const d = decideError(
        { source: 'a.csv row 2', tries: 1, limited_tries: 0, waited: { since: 0, answers: 3, last: 'slow_answer' } },
        batch,
        trickled,
        policy,
        () => 0.5,
        now,
        null,
        'batchdesk resume b1 --store URL',
      );
      expect(d.kind === 'fail' && d.err.message).toContain('`batchdesk retry b1 --store URL`');
    });
  });
});
