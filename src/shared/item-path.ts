// An item's path as the user knows it: relative to what they dropped (or the watched folder).
// "2026-10/call-017.wav" for a file two levels into a dropped folder `calls/`, the name alone
// for a dropped file. Made here once for every screen and the command line's budget words;
// never the path of a browser upload's copy in the data folder.

/** The last name of a path, whichever separator it uses. */
export function lastName(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? path : path.slice(cut + 1);
}

/**
 * A file's path under what was dropped: `folder` (the folders between the dropped or watched
 * folder and the file, '/'-separated; absent at its top or for a file dropped on its own) and
 * the file's name.
 */
export function pathUnderDrop(path: string, folder: string | null | undefined): string {
  const name = lastName(path);
  return folder ? `${folder}/${name}` : name;
}

/** An item that is a row of a CSV or a line of a text file, as the engine names it: "messages.csv row 3". */
export interface RowSource {
  file: string;
  kind: 'row' | 'line';
  row: string;
}

const ROW_SOURCE = /^(.*) (row|line) (\d+)$/;

/** "messages.csv row 3" read back into its file, kind and number; null for any other source (a file). */
export function parseRowSource(source: string): RowSource | null {
  const m = ROW_SOURCE.exec(source);
  if (m === null || m[1] === undefined || m[3] === undefined) return null;
  return { file: m[1], kind: m[2] === 'line' ? 'line' : 'row', row: m[3] };
}
