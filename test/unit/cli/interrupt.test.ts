// The first Ctrl-C or SIGTERM stops a command cleanly; which one it was decides a standing
// worker's exit code (SIGTERM: a service manager stopping it, 0; Ctrl-C: 130).
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { onInterrupt, standingExit, type Interrupt } from '../../../src/main/cli/interrupt';
import type { Io } from '../../../src/main/cli/io';

let live: Interrupt | null = null;
afterEach(() => live?.dispose());

function io(): { io: Io; said: () => string } {
  const err = new PassThrough();
  let text = '';
  err.on('data', (d: Buffer) => (text += d.toString()));
  return { io: { stdout: new PassThrough(), stderr: err, stdin: new PassThrough(), env: {} } as unknown as Io, said: () => text };
}

describe('onInterrupt', () => {
  for (const [signal, code] of [
    ['SIGTERM', 0],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: aborts, says what happens to the work, and a standing worker exits ${code}`, async () => {
      const { io: out, said } = io();
      let then = 0;
      live = onInterrupt(out, 'Stopping: in-flight items go back to the queue.', () => then++);
      expect(live.stoppedBy()).toBeNull();
      process.emit(signal, signal);
      expect(live.signal.aborted).toBe(true);
      expect(then).toBe(1);
      expect(live.stoppedBy()).toBe(signal);
      expect(standingExit(live)).toBe(code);
      await new Promise((r) => setImmediate(r));
      expect(said()).toContain('Stopping: in-flight items go back to the queue.');
    });
  }

  it('listens no more once disposed', () => {
    const before = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
    const stop = onInterrupt(io().io, 'Stopping.');
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual(before.map((n) => n + 1));
    stop.dispose();
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual(before);
  });
});
