// A database damaged in the middle (its header sound, some pages not) opens like a sound one:
// SQLite notices only when a statement reads a damaged page, which may be half way through a run,
// after sends it can no longer record. So a data folder is checked as it is opened, before
// anything is written: SQLite's quick_check reads every page and checks each b-tree's structure.
// A damaged file is refused with its path and what to do, and nothing is written into it.
//
// The check reads the whole file (0.1-0.4 s for 50 MB, a 100,000-item folder, on a busy 2-core
// machine), so it is made once per state of the file: a sound result is remembered beside it (the
// size and time of the file and its WAL), and the next command that finds them unchanged (a second
// `status`) does not read it again. Damage written from outside changes them; damage that does not
// (a failing disk) is met by the run itself (queue/storage-failure.ts).
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DatabaseUnusableError, isCorruption, type Db } from './db/connection';

/** The size and modification time of the file and of its WAL when that holds anything, as one string. */
function stateOf(file: string): string {
  const part = (path: string): string => {
    try {
      const st = statSync(path);
      // An empty WAL is made anew by every open: its time says nothing about the pages.
      return st.size === 0 ? '-' : `${st.size}@${st.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return `${part(file)} ${part(`${file}-wal`)}`;
}

function remembered(stamp: string): string | null {
  try {
    return readFileSync(stamp, 'utf8');
  } catch {
    return null;
  }
}

/** Where the sound result of a check of `file` is remembered. */
const stampOf = (file: string): string => `${file}-checked`;

/**
 * Forgets that `file` was found sound: called when a statement meets damage the check's stamp let
 * through (pages damaged with the file's size and time kept), so the next command checks it all.
 */
export function forgetCheck(file: string): void {
  try {
    rmSync(stampOf(file), { force: true });
  } catch {
    // A folder that cannot be written: the damage is reported all the same.
  }
}

/** Closes `db` and throws DatabaseUnusableError if its file is damaged. */
export function refuseDamaged(db: Db, file: string): void {
  const stamp = stampOf(file);
  const state = stateOf(file);
  if (remembered(stamp) === state) return;
  let found: string;
  try {
    // The first problem is enough to refuse the file; quick_check stops there.
    found = String(db.pragma('quick_check(1)', { simple: true }));
  } catch (e) {
    if (!isCorruption(e)) throw e;
    found = e instanceof Error ? e.message : String(e);
  }
  if (found === 'ok') {
    try {
      writeFileSync(stamp, state);
    } catch {
      // A folder that cannot be written: checked again next time, nothing else changes.
    }
    return;
  }
  db.close();
  const first = found
    .replace(/\*\*\* in database main \*\*\*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  throw new DatabaseUnusableError(file, `is damaged (SQLite's check found: ${first.slice(0, 200)})`);
}
