// Names of the files a batch writes to its outputs folder: after the item's name or row, never
// two alike in one batch (compared case-insensitively, as macOS and Windows do).
import { join } from 'node:path';

/** Where a batch's answers saved as files go: <data folder>/outputs/<batch id>/. */
export function outputsDirOf(dataDir: string, batchId: string): string {
  return join(dataDir, 'outputs', batchId);
}
export class OutputNames {
  private readonly used = new Set<string>();

  unique(base: string, ext: string): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${base}.${ext}` : `${base} (${n}).${ext}`;
      const key = name.toLowerCase();
      if (!this.used.has(key)) {
        this.used.add(key);
        return name;
      }
    }
  }
}
