// One transaction of an import's rows (a chunk of new jobs in a batch nobody sees yet), made
// cheap in two ways, both put back as soon as the transaction ends (it is synchronous, so no
// other statement of this connection runs meanwhile):
// - temp_store = MEMORY: every INSERT into `jobs` fires triggers (the search index's, and on the
//   main connection the temporary one of db/sendable-jobs.ts), so each keeps a statement
//   journal; past 64 KiB in a transaction that journal spills to a temporary file and each row
//   then costs about a dozen pwrite calls (half the time of importing 100,000 rows). Left on, a
//   large sort elsewhere would never spill to disk.
// - synchronous = NORMAL: the commit is not fsync'd. The rows belong to an import that only
//   appears when it is sealed, and the seal commits with synchronous = FULL, whose fsync of the
//   write-ahead log makes every earlier frame durable with it. A crash before that loses only an
//   unfinished import, which the next create removes anyway (Engine.removeAbandonedImports).
import type { Db } from './connection';
import { restoreSendableTriggers } from './sendable-jobs';

export function unsealedWrite<T>(db: Db, fn: () => T): T {
  // Inside an open transaction (the runner's group commit, queue/group-commit.ts, while a batch
  // runs in this process) the safety level cannot change: the rows join that transaction and are
  // committed with it, at FULL.
  if (db.inTransaction) return db.transaction(fn)();
  const temp = Number(db.pragma('temp_store', { simple: true }));
  const sync = Number(db.pragma('synchronous', { simple: true }));
  db.pragma('temp_store = MEMORY');
  db.pragma('synchronous = NORMAL');
  try {
    return db.transaction(fn)();
  } finally {
    db.pragma(`synchronous = ${sync}`);
    db.pragma(`temp_store = ${temp}`);
    // A temp_store change deletes every temporary trigger of the connection: put ours back.
    restoreSendableTriggers(db);
  }
}
