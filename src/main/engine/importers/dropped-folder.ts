// Where a file sits under the folder the user dropped (or named on the command line): the folders
// between that folder and the file, so a result export can recreate them ("calls/monday/a.wav"
// dropped as "calls" -> "monday"). A file dropped on its own, or at the top of the folder, has none.
import { resolve, sep } from 'node:path';

/** For the chosen paths: a file's folder under the outermost chosen folder holding it, '/'-separated, or null. */
export function droppedFolderOf(inputs: readonly string[]): (path: string) => string | null {
  // Outermost first: a folder chosen inside another chosen one keeps its place in the bigger tree.
  const starts = inputs
    .map((p) => resolve(p))
    .sort((a, b) => a.length - b.length)
    .map((root) => (root.endsWith(sep) ? root : root + sep));
  // Asked for every file of an import on the engine's thread: cut, not split and joined.
  return (path) => {
    for (const start of starts) {
      if (!path.startsWith(start)) continue;
      const last = path.lastIndexOf(sep);
      if (last < start.length) return null;
      const folder = path.slice(start.length, last);
      return sep === '/' ? folder : folder.split(sep).join('/');
    }
    return null;
  };
}
