// A transaction whose commit is made durable off the engine's thread. At synchronous=FULL in WAL
// mode SQLite fsyncs the WAL file inside COMMIT, on the thread that commits; after an import that
// fsync also flushes every frame its writing thread committed without one (db/unsealed-write.ts),
// and on a busy disk it held the window's engine for tens of ms (docs/performance.md, issue 39).
// Here the transaction commits at synchronous=NORMAL and the same WAL file is fsync'd on libuv's
// thread pool; the promise resolves only then. Same frames, same fsync, before anyone is told:
// FULL's guarantee, later on the clock (as queue/wal-sync.ts does for the runner's group commit).
// A process killed in between loses nothing (the frames are in the OS's cache); power lost in
// between loses only a write nobody was told of.
import { open } from 'node:fs/promises';
import type { Db } from './connection';

export async function syncedOffThread<T>(db: Db, fn: () => T): Promise<T> {
  // Inside an open transaction (a runner's group) the writes commit, and are synced, with it;
  // a database not in WAL mode or below FULL has no such fsync to move.
  const level = db.inTransaction || db.memory ? 0 : Number(db.pragma('synchronous', { simple: true }));
  if (level < 2 || db.pragma('journal_mode', { simple: true }) !== 'wal') return db.transaction(fn)();
  db.pragma('synchronous = NORMAL');
  let value: T;
  try {
    value = db.transaction(fn)();
  } finally {
    if (db.open && !db.inTransaction) db.pragma(`synchronous = ${level}`);
  }
  // Read-write: Windows flushes only a handle that may write (FlushFileBuffers).
  const wal = await open(`${db.name}-wal`, 'r+');
  try {
    await wal.sync();
  } finally {
    await wal.close();
  }
  return value;
}
