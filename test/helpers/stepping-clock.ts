// A test clock for hours of waiting in seconds: time moves only when the engine (or a team
// worker) waits, by at least a minute a wait, so hours take a few thousand passes. A hook can look
// at the store while the sender waits (before the time moves).
import type { Clock } from '../../src/main/engine/clock';

export class SteppingClock implements Clock {
  onSleep: (() => void | Promise<void>) | null = null;
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    const hook = this.onSleep;
    this.onSleep = null;
    await hook?.();
    this.t += Math.max(ms, 60_000);
  }
}
