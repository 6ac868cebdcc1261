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
});
