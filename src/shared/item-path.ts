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
