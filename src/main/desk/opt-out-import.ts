// A file of recipients put on the desk's opt-out list (`optout import FILE`, the window's "Import a
// list"): read by the engine's reader, added in one go, counted as added, already on the list and
// refused (each with its row or line and cause). One function, so both faces count alike.
import { basename } from 'node:path';
import { readOptOutFile, type OptOutRefusal } from '../engine/importers/read-opt-out-file';
import type { OptOutBook } from './desk';

export type OptOutImport =
  | {
      ok: true;
      /** The file's name, as the refusals and the entries' sources name it. */
      file: string;
      /** Data lines read (not counting a header or blank lines). */
      lines: number;
      added: number;
      /** Recipients of the file already on the list (or given twice in it). */
      already: number;
      /** Entries on the list now. */
      total: number;
      refused: OptOutRefusal[];
    }
  /** Nothing was added: the file could not be read, or holds no recipients. */
  | { ok: false; why: 'unreadable' | 'empty'; message: string };

const WHAT_TO_GIVE = 'Give a CSV with a column to, phone or email, or a text file with one recipient per line.';

export async function importOptOutFile(book: OptOutBook, path: string): Promise<OptOutImport> {
  let read;
  try {
    read = await readOptOutFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const cause = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : e instanceof Error ? e.message : String(e);
    return { ok: false, why: 'unreadable', message: `${path}: ${cause}. ${WHAT_TO_GIVE}` };
  }
  if (read.lines === 0)
    return { ok: false, why: 'empty', message: `${path} holds no recipients (it is empty, or has only a header). Nothing was added. ${WHAT_TO_GIVE}` };
  const added = await book.add(read.recipients.map((r) => ({ recipient: r.recipient, source: `import ${r.source}` })));
  return {
    ok: true,
    file: basename(path),
    lines: read.lines,
    added,
    already: read.recipients.length - added,
    total: (await book.list()).length,
    refused: read.problems,
  };
}
