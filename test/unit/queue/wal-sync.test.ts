// The group commit's off-thread fsync (queue/wal-sync.ts): waiters resolve only once an fsync
// that started after their commit has returned; now() covers everything waiting, the fsync under
// way included; a file that cannot be synced rejects its waiters, or reports a loss nobody waited for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WalSync, type SyncWaiter } from '../../../src/main/engine/queue/wal-sync';
import { tempDir } from '../../helpers/temp-dir';

describe('WalSync', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let lost: unknown[];

  beforeEach(() => {
    dir = tempDir();
    file = join(dir.path, 'x.sqlite-wal');
    writeFileSync(file, 'frames');
    lost = [];
  });
  afterEach(() => dir.cleanup());

  const waiter = (): { w: SyncWaiter; state: () => string; done: Promise<void> } => {
    let state = 'waiting';
    let w!: SyncWaiter;
    const done = new Promise<void>((resolve, reject) => {
      w = {
        resolve: () => ((state = 'resolved'), resolve()),
        reject: (e) => ((state = `rejected: ${String(e)}`), reject(e as Error)),
      };
    });
    done.catch(() => undefined);
    return { w, state: () => state, done };
  };

  it('resolves waiters after the fsync, not at once; a commit during it gets a later fsync of its own', async () => {
    const sync = new WalSync(file, (e) => lost.push(e));
    const first = waiter();
    sync.later([first.w]);
    const second = waiter();
    sync.later([second.w]);
    expect(first.state()).toBe('waiting');
    expect(second.state()).toBe('waiting');
    await first.done;
    // The second commit came while the first fsync was under way: it was not covered by it.
    expect(second.state()).toBe('waiting');
    await second.done;
    sync.release();
    expect(lost).toEqual([]);
  });

  it('now() syncs on the thread and resolves everything waiting, the fsync under way included', () => {
    const sync = new WalSync(file, (e) => lost.push(e));
    const inFlight = waiter();
    sync.later([inFlight.w]);
    const queued = waiter();
    sync.later([queued.w]);
    sync.now();
    expect(inFlight.state()).toBe('resolved');
    expect(queued.state()).toBe('resolved');
    sync.release();
  });

  it('rejects the waiters of a file it cannot sync, and reports a commit nobody waited for', async () => {
    const sync = new WalSync(join(dir.path, 'missing-wal'), (e) => lost.push(e));
    const w = waiter();
    sync.later([w.w]);
    await expect(w.done).rejects.toThrow(/ENOENT/);
    sync.later([]);
    expect(lost).toHaveLength(1);
    expect(String(lost[0])).toMatch(/ENOENT/);
  });
});
