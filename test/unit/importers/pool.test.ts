import { expect, it } from 'vitest';
import { mapLimit } from '../../../src/main/engine/importers/pool';

it('runs at most `limit` tasks at once and keeps input order', async () => {
  let running = 0;
  let peak = 0;
  const results = await mapLimit([5, 1, 4, 2, 3, 0, 6, 1], 4, async (n, i) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, n));
    running--;
    return `${i}:${n}`;
  });
  expect(peak).toBe(4);
  expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6', '7:1']);
});

it('stops starting new work after a failure and rejects', async () => {
  const started: number[] = [];
  await expect(
    mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('boom');
      await new Promise((r) => setTimeout(r, 5));
      return n;
    }),
  ).rejects.toThrow('boom');
  expect(started.length).toBeLessThan(6);
});
