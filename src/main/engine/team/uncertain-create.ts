// A batch made for the team becomes visible in one commit (its seal). When the connection drops
// around that commit, the client cannot tell whether it went through: the store can, once it
// answers again. Until then this says so and asks every second; then it tells which, so the
// user never gets a failure for a batch that was made (and sends it again) nor a success for
// one that was not. A drop before the seal is certain: nothing was made.
import type { Clock } from '../clock';
import { SharedStoreError } from '../user-error';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { causeOf, isStoreUnreachable } from '../store/pg/store-unreachable';
import { RECONNECT_MS } from './store-outage';

export interface CreateCheck {
  store: Pick<PgQueueStore, 'sealedImport' | 'shownUrl'>;
  clock: Clock;
  /** Tells the user what happens meanwhile (the command line's stderr); the window has no such line. */
  say?: (line: string) => void;
}

/** Whether the seal of `id` went through, asked until the store answers. */
export async function sealedAfterAll(d: CreateCheck, id: string, cause: unknown): Promise<boolean> {
  const sealed = await untilAnswered(
    d,
    () => d.store.sealedImport(id),
    (e) =>
      `The shared store ${d.store.shownUrl} cannot be reached (${causeOf(e)}) as batch ${id} was committed, so whether it was created is not known yet: asking again every second. Nothing of it is left on this computer; if you stop here, \`batchdesk status --store URL\` lists it if it was created.`,
  );
  d.say?.(
    `The connection to the shared store ${d.store.shownUrl} dropped as batch ${id} was committed (${causeOf(cause)}); the store says it was ${sealed ? '' : 'not '}created.`,
  );
  return sealed;
}

/** Runs `fn` (on the store) until the store answers; `waiting` is said once, the first time it does not. */
export async function untilAnswered<T>(d: Omit<CreateCheck, 'store'>, fn: () => Promise<T>, waiting: (e: unknown) => string): Promise<T> {
  let said = false;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (!isStoreUnreachable(e)) throw e;
      if (!said) {
        said = true;
        d.say?.(waiting(e));
      }
      await d.clock.sleep(RECONNECT_MS);
    }
  }
}

/** The create that did not go through (`storeAnswered`: the store said so, so it can be tried again now). */
export function notCreated(id: string, shownUrl: string, cause: unknown, storeAnswered: boolean): SharedStoreError {
  return new SharedStoreError(
    `Batch ${id} was not created in the shared store ${shownUrl}: the connection dropped before it was committed (${causeOf(cause)}). Nothing of it is kept: run the same command again${storeAnswered ? '' : ' once the store can be reached'}.`,
  );
}
