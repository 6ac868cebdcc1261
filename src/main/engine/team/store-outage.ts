// The shared store out of reach, as a worker lives through it (a restart, a reset, a network that
// stopped answering): said once when it goes (which store, why, what the worker does), once when
// it is back, and each call tried again every second meanwhile. One set of words for the worker's
// loop and for what `run --store` does before it (resolving and starting the batches).
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import { causeOf, isStoreUnreachable, isTransientConflict } from '../store/pg/store-unreachable';

export const RECONNECT_MS = 1_000;

export interface OutageDeps {
  clock: Clock;
  logger: Logger;
  say: (line: string) => void;
  /** The store's URL, its password hidden (null: said as "the shared store"). */
  store: string | null;
}

export class StoreOutage {
  private away = false;

  constructor(private readonly d: OutageDeps) {}

  get down(): boolean {
    return this.away;
  }

  /** Runs `fn` until it is done: a store out of reach is waited for, never an outcome dropped. */
  async retry<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        const v = await fn();
        this.back();
        return v;
      } catch (e) {
        // Rolled back whole by the server to break a conflict with another worker: run it again.
        if (isTransientConflict(e)) {
          this.d.logger.log('warn', 'store.conflict_retried', { error: causeOf(e) });
          continue;
        }
        if (!isStoreUnreachable(e)) throw e;
        this.gone(e);
        await this.d.clock.sleep(RECONNECT_MS);
      }
    }
  }

  /** The store did not answer: said once until it is back. */
  gone(e: unknown): void {
    if (this.away) return;
    this.away = true;
    this.d.logger.log('warn', 'store.unreachable', { error: causeOf(e) });
    this.d.say(
      `The shared store${this.d.store === null ? '' : ` ${this.d.store}`} cannot be reached (${causeOf(e)}). This worker pauses: it keeps the answers it has, tries again every second, and carries on when the store is back. Nothing is lost or sent twice.`,
    );
  }

  back(): void {
    if (!this.away) return;
    this.away = false;
    this.d.logger.log('info', 'store.back', {});
    this.d.say('The shared store is back: carrying on.');
  }
}
