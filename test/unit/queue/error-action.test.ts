// A job that gave up quotes its last cause, never the "retrying" or "it is resent" that cause said
// while tries were left.
import { describe, expect, it } from 'vitest';
import { decideError } from '../../../src/main/engine/queue/error-action';
import { DEFAULT_BACKOFF } from '../../../src/main/engine/queue/backoff';
import { DEFAULT_SERVER_WAIT } from '../../../src/main/engine/queue/server-wait';
import { networkFailure } from '../../../src/main/engine/queue/job-request';
import { NetworkError } from '../../../src/main/engine/api/http-client';
import { engineError } from '../../../src/shared/errors';

const policy = { backoff: { ...DEFAULT_BACKOFF, maxTries: 3 }, serverWait: DEFAULT_SERVER_WAIT };
const batch = { id: 'b1', key_id: null };
const decide = (tries: number, err: ReturnType<typeof engineError>) => decideError({ source: 'a.csv row 2', tries, limited_tries: 0 }, batch, err, policy, () => 0.5, 0, null);

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
        expect(d.err.message).toMatch(/^Gave up after 3 attempts\. Last: (The API had a temporary problem \(HTTP 503\)|Network problem: socket hang up\. The API may have received the item)\. Retry the failed items later \(Retry failed in the window, or `batchdesk retry b1`\): same idempotency key, nothing is done twice\.$/);
        expect(d.err.message).not.toMatch(/retrying|resent/i);
      }
    }
  });

  it('a pause for the key or its cap ends with the command that resumes the batch (a team names its store)', () => {
    const quota = engineError('quota', "The API key's spending cap is reached. Raise the cap in the panel (or top up).", { httpStatus: 402 });
    const here = decide(1, quota);
    expect(here.kind === 'pause' && here.reason).toBe("The API key's spending cap is reached. Raise the cap in the panel (or top up). Then resume it: `batchdesk resume b1` (in the window: Resume).");
    const team = decideError({ source: 'a.csv row 2', tries: 1, limited_tries: 0 }, batch, quota, policy, () => 0.5, 0, null, 'batchdesk resume b1 --store URL');
    expect(team.kind === 'pause' && team.reason).toMatch(/\(or top up\)\. Then resume it: `batchdesk resume b1 --store URL` \(in the window: Resume\)\.$/);
    const auth = decide(1, engineError('auth', 'The API key was refused (HTTP 401).', { httpStatus: 401 }));
    expect(auth.kind === 'pause' && auth.reason).toBe('The API key was refused (HTTP 401). Then resume it: `batchdesk resume b1` (in the window: Resume).');
  });

  it('a pause after too many 429s names the limit to lower and the command that resumes the batch', () => {
    const limited = engineError('rate_limited', 'HTTP 429', { httpStatus: 429 });
    const d = decideError({ source: 'a.csv row 2', tries: 0, limited_tries: policy.serverWait.rateLimitedBudget }, batch, limited, policy, () => 0.5, 0, 60);
    expect(d.kind === 'pause' && d.reason).toMatch(/`batchdesk config set rpm N`\), then resume it: `batchdesk resume b1` \(in the window: Resume\)\.$/);
  });
});
