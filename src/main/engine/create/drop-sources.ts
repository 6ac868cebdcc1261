// Which files under a browser drop's folder are items' sources: what the sweep keeps. Asked of the
// jobs themselves (one range over the jobs_file_path index, schema step 29), not of a list written
// after a create, which a crash before it was written would have left out.
import { resolve, sep } from 'node:path';
import type { Db } from '../db/connection';

/** The expression jobs_file_path indexes: a file item's source (capabilities/file-payload.ts). */
const FILE_PATH = `json_extract(payload_json, '$.path')`;

/** The source paths of every job (of any batch, sealed or still importing) under `dir`. */
export function sourcesUnder(db: Db, dir: string): Set<string> {
  const root = resolve(dir);
  // Every path that starts with "<dir>/": from "<dir>/" up to, not including, "<dir>" + the next character after the separator.
  const from = root + sep;
  const to = root + String.fromCharCode(sep.charCodeAt(0) + 1);
  const out = new Set<string>();
  for (const p of db.prepare(`SELECT ${FILE_PATH} FROM jobs WHERE ${FILE_PATH} >= ? AND ${FILE_PATH} < ?`).pluck().iterate(from, to)) {
    if (typeof p === 'string') out.add(resolve(p));
  }
  return out;
}
