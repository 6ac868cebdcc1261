// `forget` in the data folder's own files besides the database: exports, logs and anything else
// Batchdesk wrote there as text are rewritten with the value replaced; a file that cannot be read
// as text (audio, images, spreadsheets and zips) is deleted when it holds the value as it was
// given, or when it was made from an item that held it (an output, an export of its batch).
// Another SQLite database there (the embedded sandbox's) is scrubbed row by row, not deleted.
// Files of the user's own, outside the data folder, are never opened.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DATABASE_FILE } from '../data-dir';
import { asText, scrubText, type ForgetTarget } from './forget-target';
import { forgetInSqliteFile, isSqliteFile, SQLITE_COMPANIONS } from './forget-sqlite-file';

export interface FilesReport {
  /** Text files rewritten, with how many places each. */
  rewritten: { path: string; count: number }[];
  /** Files deleted, with why. */
  deleted: { path: string; why: string }[];
  /** Files left unread (too large), with why. */
  unread: { path: string; why: string }[];
}

/** Larger files are not read whole: reported, for the user to look at. */
const LARGEST_READ = 256 * 1024 * 1024;

/** The database and its companions are cleaned by the store (sqlite-forget-store.ts); the lock holds no data. */
function ownedByStore(name: string): boolean {
  return name.startsWith(DATABASE_FILE) || name.startsWith('engine-lock.');
}

export function forgetInDataFolder(
  dataDir: string,
  target: ForgetTarget,
  made: { batchIds: ReadonlySet<string>; outputs: ReadonlySet<string> },
  literals: readonly string[],
  opts: { dryRun?: boolean } = {},
): FilesReport {
  const report: FilesReport = { rewritten: [], deleted: [], unread: [] };
  const needles = literals.filter((l) => l.length >= 3).map((l) => Buffer.from(l, 'utf8'));
  for (const path of walk(dataDir)) {
    const rel = relative(dataDir, path);
    if (!rel.includes(sep) && ownedByStore(rel)) continue;
    // Another database (the embedded sandbox's): scrubbed in place, its companions with it.
    if (SQLITE_COMPANIONS.some((c) => path.endsWith(c) && isSqliteFile(path.slice(0, -c.length)))) continue;
    if (isSqliteFile(path)) {
      const count = forgetInSqliteFile(path, target, opts);
      if (count > 0) report.rewritten.push({ path, count });
      continue;
    }
    const size = statSync(path).size;
    if (made.outputs.has(path)) {
      report.deleted.push({ path, why: 'made from an item that named them' });
      if (!opts.dryRun) rmSync(path, { force: true });
      continue;
    }
    if (size > LARGEST_READ) {
      report.unread.push({ path, why: `larger than ${LARGEST_READ / 1024 / 1024} MB, not searched` });
      continue;
    }
    const bytes = readFileSync(path);
    const text = asText(bytes);
    if (text !== null) {
      const r = scrubText(text, target);
      if (r.count > 0) {
        report.rewritten.push({ path, count: r.count });
        if (!opts.dryRun) writeFileSync(path, r.text);
      }
      continue;
    }
    const exportOfTheirs = rel.startsWith(`exports${sep}`) && [...made.batchIds].some((id) => rel.includes(id));
    if (exportOfTheirs || needles.some((n) => bytes.includes(n))) {
      report.deleted.push({
        path,
        why: exportOfTheirs ? 'an export of a batch that named them (not text: cannot be rewritten)' : 'holds the value and is not text',
      });
      if (!opts.dryRun) rmSync(path, { force: true });
    }
  }
  return report;
}

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (e.isFile()) yield path;
  }
}
