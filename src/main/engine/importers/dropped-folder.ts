// Where a file sits under the folder the user dropped (or named on the command line): the folders
// between that folder and the file, so a result export can recreate them ("calls/monday/a.wav"
// dropped as "calls" -> "monday"). A file dropped on its own, or at the top of the folder, has none.
import { resolve, sep } from 'node:path';

/** For the chosen paths: a file's folder under the outermost chosen folder holding it, '/'-separated, or null. */
export function droppedFolderOf(inputs: readonly string[]): (path: string) => string | null {
  // Outermost first: a folder chosen inside another chosen one keeps its place in the bigger tree.
  const roots = inputs.map((p) => resolve(p)).sort((a, b) => a.length - b.length);
  return (path) => {
    for (const root of roots) {
      const start = root.endsWith(sep) ? root : root + sep;
      if (!path.startsWith(start)) continue;
      const parts = path.slice(start.length).split(sep);
      parts.pop();
      return parts.length === 0 ? null : parts.join('/');
    }
    return null;
  };
}
