// The gap between two messages to one person holds as they see it: it counts from the later of
// the request leaving and its answer coming back, since the message reached the API in between.
// A request that travels slowly no longer shortens the gap to the next message, nor does one
// that is still in flight when the gap since it left has passed.
import { afterEach, describe, expect, it } from 'vitest';
import { RecipientPacing } from '../../../src/main/engine/messaging/recipient-pacing';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';

describe('RecipientPacing', () => {
  let q: QueueFixture;
  afterEach(() => q.close());

  it('counts the gap from the answer of the last message, not only from its request', () => {
    q = queueFixture({});
    const pacing = new RecipientPacing(q.db, () => q.clock.now());
    const t0 = q.clock.now();
    expect(pacing.take('+4930123456', 1, 1_000)).toEqual({ ok: true });
    // Its answer comes 800 ms later: the message may have reached the API only then.
    q.clock.advance(800);
    pacing.sent('+4930123456', 1);
    q.clock.advance(200);
    expect(pacing.take('+4930123456', 2, 1_000)).toEqual({ ok: false, until: t0 + 1_800, lastAt: t0 + 800 });
    q.clock.advance(800);
    expect(pacing.take('+4930123456', 2, 1_000)).toEqual({ ok: true });
  });

  it('holds the recipient while the last message is still in flight, however long ago it left', () => {
    q = queueFixture({ b1: 2 });
    const pacing = new RecipientPacing(q.db, () => q.clock.now());
    const [first, second] = q.store.claim('b1', 2, 600_000);
    if (!first || !second) throw new Error('two jobs claimed');
    expect(pacing.take('+4930123456', first.id, 1_000)).toEqual({ ok: true });
    // Its request waited for the rate limit, or travels slowly: no answer yet, 5 s on. It may
    // reach the API any moment, so the next message waits for its answer and a gap after it.
    const t0 = q.clock.now();
    q.clock.advance(5_000);
    expect(pacing.take('+4930123456', second.id, 1_000)).toEqual({ ok: false, until: t0 + 6_000, lastAt: t0 });
    // The answer comes and the job is done: the gap counts from the answer.
    pacing.sent('+4930123456', first.id);
    q.store.succeed(first, { httpStatus: 200, resultJson: '{}', rawResponse: '{}', units: 1, cost: 50 });
    q.clock.advance(999);
    expect(pacing.take('+4930123456', second.id, 1_000)).toEqual({ ok: false, until: t0 + 6_000, lastAt: t0 + 5_000 });
    q.clock.advance(1);
    expect(pacing.take('+4930123456', second.id, 1_000)).toEqual({ ok: true });
  });

  it('an answer of an older message moves nothing once a later one is noted', () => {
    q = queueFixture({});
    const pacing = new RecipientPacing(q.db, () => q.clock.now());
    expect(pacing.take('+4930123456', 1, 0)).toEqual({ ok: true });
    q.clock.advance(10);
    expect(pacing.take('+4930123456', 2, 0)).toEqual({ ok: true });
    const noted = (): number => (q.db.prepare(`SELECT last_at FROM recipient_sends`).get() as { last_at: number }).last_at;
    const before = noted();
    q.clock.advance(500);
    pacing.sent('+4930123456', 1);
    expect(noted()).toBe(before);
  });
});
