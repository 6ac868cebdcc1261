// Names of the files a batch writes to its outputs folder: after the item's name or row, never
// two alike in one batch (compared case-insensitively, as macOS and Windows do).
import { join } from 'node:path';

/** Where a batch's answers saved as files go: <data folder>/outputs/<batch id>/. */
export function outputsDirOf(dataDir: string, batchId: string): string {
  return join(dataDir, 'outputs', batchId);
}
/** `base.ext`, then `base (2).ext`, `base (3).ext`, ...: how a clash is told apart everywhere. */
export function numberedName(base: string, ext: string, n: number): string {
  return n === 1 ? `${base}.${ext}` : `${base} (${n}).${ext}`;
}

/** Names the OS keeps for devices on Windows, also with an extension ("nul.txt"). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
/** Bytes a base may take, leaving room for " (12345).ext" under the usual 255-byte limit. */
const MAX_BASE_BYTES = 200;

/**
 * `text` made safe as a file's base name on every OS: no path separators or control characters,
 * no dot file, no trailing dot or space, no device name, at most 80 characters and 200 bytes;
 * '' when nothing is left (the caller names the item by its row or number instead).
 */
export function safeFileBase(text: string): string {
  let s = text
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  let chars = Array.from(s).slice(0, 80);
  while (chars.length > 0 && Buffer.byteLength(chars.join('')) > MAX_BASE_BYTES) chars = chars.slice(0, -1);
  s = chars.join('').replace(/[.\s]+$/, '');
  return WINDOWS_DEVICE.test(s) ? `_${s}` : s;
}

export class OutputNames {
  private readonly used = new Set<string>();

  unique(base: string, ext: string): string {
    for (let n = 1; ; n++) {
      const name = numberedName(base, ext, n);
      const key = name.toLowerCase();
      if (!this.used.has(key)) {
        this.used.add(key);
        return name;
      }
    }
  }
}
