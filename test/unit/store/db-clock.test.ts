// A worker's clock is the database server's: the offset is measured from the shortest of a few
// round trips. On a loaded machine one answer can sit a second in the socket; measured from that
// answer alone, the worker's clock was half a second off the others' (two workers then sent to
// one recipient within its gap).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { DbClock } from '../../../src/main/engine/store/pg/db-clock';

/** A server on this machine's clock whose first answer arrives `lateMs` after it was given. */
function serverWithOneLateAnswer(lateMs: number): { pool: pg.Pool; asked: () => number } {
  let asked = 0;
  const query = async (): Promise<{ rows: { ms: string }[] }> => {
    asked++;
    const answer = { rows: [{ ms: String(Date.now()) }] };
    if (asked === 1) await new Promise((r) => setTimeout(r, lateMs));
    return answer;
  };
  return { pool: { query } as unknown as pg.Pool, asked: () => asked };
}

describe('DbClock', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the offset of the shortest round trip, not of an answer that waited', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const server = serverWithOneLateAnswer(1_900);
    const clock = new DbClock(server.pool);
    const measured = clock.sync();
    await vi.advanceTimersByTimeAsync(1_900);
    // Same clock as the server: the offset is 0, not the -950 ms the late answer alone gives.
    expect(await measured).toBe(0);
    expect(clock.now()).toBe(Date.now());
    // A short round trip ends the measurement: the server is not asked more than needed.
    expect(server.asked()).toBe(2);
  });
});
