// An injected clock for unit tests: time moves only when the test says so.
import type { Clock } from '../../src/main/engine/clock';

export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2026, 10, 21, 9, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  async sleep(ms: number): Promise<void> {
    this.t += ms;
  }
}
