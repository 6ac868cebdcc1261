// Writes of derived data (the search index's catch-up) committed without the fsync of
// synchronous=FULL: on a busy disk that fsync held the engine's thread 10-200 ms per commit, five
// times a second during a run, while the window's calls waited (docs/performance.md, issue 39).
// Nothing is lost by it: the commit is in the WAL at once (a killed process loses nothing), the
// next FULL commit or the group commit's fsync makes it durable with its own frames, and power
// lost before that takes back the whole transaction (the WAL's frames are checksummed in a
// chain), whose notes are then indexed again.
import type { Db } from './connection';

/** Runs `fn` (which commits its own transaction) at synchronous=NORMAL, then puts the level back. */
export function withoutFsync<T>(db: Db, fn: () => T): T {
  // Inside an open transaction the level cannot change: the writes commit with that transaction.
  if (db.inTransaction) return fn();
  const level = Number(db.pragma('synchronous', { simple: true }));
  if (level < 2) return fn();
  db.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    if (!db.inTransaction) db.pragma(`synchronous = ${level}`);
  }
}
