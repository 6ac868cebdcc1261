// What an SQLite file's 100-byte header says about the file, checked before SQLite touches it:
// every open of a data folder's database (schema/open-database.ts) and the built database a new folder
// copies (schema/fresh-database.ts).

const MAGIC = 'SQLite format 3\0';

/**
 * Why the file is not a sound SQLite database, as words after its path; null when its header is
 * sound. `size`: the file's size in bytes. `logged`: a write-ahead log beside it holds pages, so
 * the file may be shorter than its header says (SQLite replays the log when it opens it).
 */
export function headerProblem(head: Buffer, size: number, logged = false): string | null {
  if (head.length < 100 || head.toString('latin1', 0, 16) !== MAGIC) {
    return 'is not a Batchdesk database (it is not an SQLite file, or its first page is damaged)';
  }
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return 'is damaged (its header names an impossible page size)';
  if (logged) return null;
  if (size % pageSize !== 0) return `is truncated (${size} bytes is not a whole number of ${pageSize}-byte pages)`;
  // The page count in the header is only valid when its "valid-for" number matches the change counter.
  const pages = head.readUInt32BE(28);
  if (head.readUInt32BE(92) === head.readUInt32BE(24) && pages * pageSize > size) {
    return `is truncated (its header says ${pages} pages, the file holds ${size / pageSize})`;
  }
  return null;
}

/** The schema version (user_version) an SQLite header holds. */
export function headerUserVersion(head: Buffer): number {
  return head.readUInt32BE(60);
}
