// Opens the team's shared store for one worker or command: connects, migrates, and reads the
// database server's time, which is then every clock of this process that touches the store
// (leases, run times and rate buckets compare across machines). A store that cannot be reached
// or refuses the login says which, and what to check.
import { Control } from '../control/control';
import { hostname } from 'node:os';
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import { redactUrl } from '../store/store-url';
import { DbClock } from '../store/pg/db-clock';
import { ANSWER_MS, PgQueueStore } from '../store/pg/pg-queue-store';
import { isStoreUnreachable, unreachableWords } from '../store/pg/store-unreachable';
import { withPgpassPassword } from '../store/pg/pgpass-password';
import { SharedStoreError } from '../user-error';

export interface SharedStoreHandle {
  store: PgQueueStore;
  /** The batch verbs over the team's store. */
  control: Control;
  clock: Clock;
  worker: string;
  /** "the shared store postgresql://…", its password hidden. */
  description: string;
  /** The store's URL, its password hidden (what `--json` outputs give as `store`). */
  url: string;
}

/** "host pid": who leases a job, shown in `status --store` and the window. */
export function workerTag(): string {
  return `${hostname()} ${process.pid}`;
}

/** `use`: a worker hears within seconds that the store stopped answering; a command's reads may take longer (PgQueueStore ANSWER_MS). */
export async function openSharedStore(url: string, use: keyof typeof ANSWER_MS = 'command'): Promise<SharedStoreHandle> {
  let server: Clock = systemClock;
  // The store's clock is the server's once measured; until then (the migration) the local one.
  const clock: Clock = { now: () => server.now(), sleep: (ms, signal) => systemClock.sleep(ms, signal) };
  const worker = workerTag();
  let store: PgQueueStore;
  try {
    store = await PgQueueStore.open({ url: await withPgpassPassword(url), clock, worker, shownUrl: redactUrl(url), answerMs: ANSWER_MS[use] });
  } catch (e) {
    throw openFailure(url, e);
  }
  const db = new DbClock(store.pool);
  try {
    await db.sync();
  } catch (e) {
    await store.close().catch(() => undefined);
    throw openFailure(url, e);
  }
  server = db;
  const shown = redactUrl(url);
  return { store, control: new Control({ store }), clock, worker, description: `the shared store ${shown}`, url: shown };
}

/** Why the store could not be opened, and what to check. */
function openFailure(url: string, e: unknown): SharedStoreError {
  const why = e instanceof Error ? e.message : String(e);
  if (why.includes('schema version')) return new SharedStoreError(`The shared store ${redactUrl(url)}: ${why}.`);
  if (isStoreUnreachable(e)) return new SharedStoreError(unreachableWords(redactUrl(url), e));
  // The client's own words for a server that asks for a password none was given for.
  if (why.includes('client password must be a string')) {
    return new SharedStoreError(
      `The shared store ${redactUrl(url)} asks for a password and none was given. Put it in the URL (postgresql://user:PASSWORD@host/db), in PGPASSWORD or in ~/.pgpass, then try again.`,
    );
  }
  return new SharedStoreError(
    `The shared store ${redactUrl(url)} refused the connection (${why}). Check the user, the password (in the URL, PGPASSWORD or ~/.pgpass) and the database name.`,
  );
}
