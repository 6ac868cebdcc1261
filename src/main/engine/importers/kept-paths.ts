// Paths kept for later messages ("a duplicate of PATH") without a string each: files of one
// folder come together in a walk, so each folder is kept once and each file as its name's UTF-8
// bytes. Kept in pages of PAGE paths, each page's bytes trimmed when it is full, so nothing is
// kept twice while growing and no more than one page has room to spare: about 24 bytes a file
// where a string was 60-100 (and lived on V8's heap, which let the heap grow to 1.5 times that).
import { sep } from 'node:path';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Paths per page. */
const PAGE = 4096;

interface Page {
  /** Where each name starts in `bytes`; its end is the next start. */
  starts: Uint32Array;
  folderOf: Int32Array;
  bytes: Uint8Array;
  used: number;
}

function newPage(): Page {
  return { starts: new Uint32Array(PAGE + 1), folderOf: new Int32Array(PAGE), bytes: new Uint8Array(16 * 1024), used: 0 };
}

export class KeptPaths {
  private readonly folders: string[] = [];
  private readonly folderIds = new Map<string, number>();
  private lastFolder = '';
  private lastFolderId = -1;
  private readonly pages: Page[] = [];
  private count = 0;

  /** Keeps `path`; its number for `get`. */
  add(path: string): number {
    const cut = path.lastIndexOf(sep) + 1;
    const folder = path.slice(0, cut);
    if (folder !== this.lastFolder || this.lastFolderId < 0) {
      let id = this.folderIds.get(folder);
      if (id === undefined) {
        id = this.folders.push(folder) - 1;
        this.folderIds.set(folder, id);
      }
      this.lastFolder = folder;
      this.lastFolderId = id;
    }
    const n = this.count++;
    const i = n % PAGE;
    if (i === 0) {
      const full = this.pages.at(-1);
      // The full page's room to spare is given back.
      if (full !== undefined) full.bytes = full.bytes.slice(0, full.used);
      this.pages.push(newPage());
    }
    const page = this.pages.at(-1) as Page;
    const name = path.slice(cut);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (page.used + name.length * 3 > page.bytes.length) {
      const bigger = new Uint8Array(Math.max(page.bytes.length * 2, page.used + name.length * 3));
      bigger.set(page.bytes.subarray(0, page.used));
      page.bytes = bigger;
    }
    page.used += encoder.encodeInto(name, page.bytes.subarray(page.used)).written;
    page.folderOf[i] = this.lastFolderId;
    page.starts[i + 1] = page.used;
    return n;
  }

  get(n: number): string {
    if (!Number.isInteger(n) || n < 0 || n >= this.count) throw new RangeError(`no kept path ${n}`);
    const page = this.pages[Math.floor(n / PAGE)] as Page;
    const i = n % PAGE;
    return (this.folders[page.folderOf[i] ?? 0] ?? '') + decoder.decode(page.bytes.subarray(page.starts[i], page.starts[i + 1]));
  }
}
