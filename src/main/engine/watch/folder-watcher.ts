// Watches one folder (subfolders included) with chokidar and says when a file is ready to take:
// when its size and modification time have not changed for `stableMs`, it is whole by its own
// format (file-complete.ts: a WAV's sizes, a PDF's %%EOF, a PNG's IEND, a JPEG's end marker) and
// no process holds it open for writing (open-writers.ts). A format that cannot say it is whole,
// and a file seen growing while watched, wait `longQuietMs` instead: a writer that closes the file
// between pieces and keeps its header whole after each one pauses, and only a longer quiet time
// tells (where the OS cannot say who holds a file open, Windows, it is the only guard). So does a
// PDF or WAV born in the folder moments before it was first seen: its first piece already looks
// whole, and only time tells whether more will come (bornHere). A file renamed in whole, and a
// PNG or JPEG copied in, keep the short time. chokidar's own
// awaitWriteFinish looks at the size only; a program that rewrites a file in place keeps its
// size and changes its mtime, so both are compared here. Hidden and partial files are never
// reported (intake-rules.ts). The first scan reports every file already there, so files that
// arrived while nothing was running are offered at the next start.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { ignoredPath } from './intake-rules';
import { appendableInPlace, fileCompleteness } from './file-complete';
import { openWritersHere, type OpenWriters } from './open-writers';
import type { IncompleteWhy } from '../../../shared/watch-notes';
import { assertNever } from '../../../shared/domain';

export interface FolderWatcherOptions {
  /** How long a file's size and mtime must hold still before it is taken. */
  stableMs: number;
  /** Poll the folder instead of OS notifications (network shares that send none). */
  usePolling?: boolean;
  /**
   * How long a file of a format that does not say where it ends, one seen growing (or last written
   * more than stableMs after it was made), or a PDF or WAV born in the folder moments before it was
   * first seen, must hold still (default 10 x stableMs).
   */
  longQuietMs?: number;
  /** Who holds a file open for writing (default: this OS's check, open-writers.ts). */
  openWriters?: OpenWriters;
  /** A file is ready: it held still for stableMs and is whole (or held still for longQuietMs). */
  onReady: (path: string) => void;
  /**
   * A file held still for longQuietMs but is not ready: said once per version of it when it is not
   * whole, once per process when one holds it open for writing.
   */
  onIncomplete?: (path: string, why: Waiting) => void;
  onError: (message: string) => void;
}

/** Why a file that held still is not taken yet. */
export type Waiting = IncompleteWhy;

/** Quiet time for formats that cannot say they are whole, as a multiple of stableMs. */
export const LONG_QUIET_FACTOR = 10;

/** When to look at the folder once more after chokidar's first scan. */
const RESCAN_MS = 500;

interface Pending {
  size: number;
  mtimeMs: number;
  /** When the file was first seen at this size and mtime. */
  since: number;
  /** Its incompleteness was said (once per version). */
  said: boolean;
  /** Its size changed while it was watched: a writer was seen at work (kept over versions). */
  grew: boolean;
  /** Born in the folder moments before it was first seen (bornHere; kept over versions). */
  young: boolean;
  /** The process last said to hold it open for writing (kept over versions). */
  saidWriter: number | null;
  /**
   * Found open: the next look waits twice as long as the last, up to longQuietMs (a recorder may
   * hold a still file for an hour; a look costs ~13 µs per open descriptor on the machine).
   */
  writerGap: number;
  nextWriterLook: number;
  timer: NodeJS.Timeout;
}

export class FolderWatcher {
  private watcher: FSWatcher | null = null;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  private rescan: NodeJS.Timeout | null = null;
  /** When start() began, and whether chokidar's first scan (every file there before) is still on. */
  private startedAt = 0;
  private startingUp = true;

  constructor(
    readonly root: string,
    private readonly opts: FolderWatcherOptions,
  ) {}

  /** Resolves once the first scan is done (every file already there has been seen once). */
  async start(): Promise<void> {
    // Loaded here, not at start-up: only commands that watch folders need it.
    const { watch } = await import('chokidar');
    if (this.closed) return;
    this.startedAt = Date.now();
    const w = watch(this.root, {
      persistent: true,
      ignoreInitial: false,
      followSymlinks: false,
      usePolling: this.opts.usePolling ?? false,
      interval: 1_000,
      ignored: (path: string) => ignoredPath(this.root, path),
    });
    this.watcher = w;
    w.on('add', (path: string) => this.touched(path));
    w.on('change', (path: string) => this.touched(path));
    w.on('unlink', (path: string) => this.forget(path));
    w.on('error', (e: unknown) => this.opts.onError(`watching ${this.root}: ${e instanceof Error ? e.message : String(e)}`));
    return new Promise((resolve) =>
      w.once('ready', () => {
        this.startingUp = false;
        // chokidar says ready when its first scan is done, but a file written in the moments
        // after (before its OS watch is in place) was sometimes never reported (1 start in 10
        // in test/crash/watch-kill). One more look a little later offers every file again; one
        // already taken is passed over without being read (take-file.ts).
        this.rescan = setTimeout(() => void this.lookAgain(), RESCAN_MS);
        resolve();
      }),
    );
  }

  private async lookAgain(): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch {
      return; // the folder is gone: chokidar reports that
    }
    for (const e of entries) {
      if (this.closed) return;
      if (!e.isFile()) continue;
      const path = join(e.parentPath, e.name);
      if (!ignoredPath(this.root, path) && !this.pending.has(path)) this.touched(path);
    }
  }

  /** Something happened to the file: (re)start its quiet period from what it looks like now. */
  private touched(path: string): void {
    if (this.closed) return;
    void this.check(path, null, this.startingUp);
  }

  /**
   * Was the file born in the folder moments before it was first seen (`madeMs`: the later of its
   * birth and its last write)? A scanner that closes the PDF after each page, or a recorder that
   * appends and patches the header, leaves a whole-looking, closed file after its first piece, and
   * a pause of any length may follow; such a file waits the long quiet time, as one seen growing.
   * - Made the long quiet time or more before it was seen: it has been quiet that long already.
   * - Seen in the first scan: it may have been born just before the watcher started (a restart
   *   while a scanner works), so the long quiet time since birth decides, as above.
   * - Seen after the first scan but made before the watcher started: it was not here then (the
   *   scan lists every file made before it began), so it was moved in (a rename keeps the birth
   *   time), whole, and keeps the short time. `stableMs` of slack covers file system timestamps a
   *   little behind the clock.
   * Where the file system keeps no birth time (0), the last write stands in: it is never earlier
   * than the birth, so no file is judged older than it is.
   */
  private bornHere(madeMs: number, seenAtStartUp: boolean): boolean {
    if (Date.now() - madeMs >= this.longQuietMs) return false;
    return seenAtStartUp || madeMs >= this.startedAt - this.opts.stableMs;
  }

  private forget(path: string): void {
    const p = this.pending.get(path);
    if (p) clearTimeout(p.timer);
    this.pending.delete(path);
  }

  private async check(path: string, before: Pending | null, seenAtStartUp = false): Promise<void> {
    let now: { size: number; mtimeMs: number; isFile: boolean; writtenOverMs: number; madeMs: number };
    try {
      const s = await stat(path);
      // Last written well after it was made: written in pieces, maybe before this watcher looked (a
      // restart, or pieces arriving before the first look). A file system without a birth time gives 0.
      const writtenOverMs = s.birthtimeMs > 0 ? s.mtimeMs - s.birthtimeMs : 0;
      now = { size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile(), writtenOverMs, madeMs: Math.max(s.birthtimeMs, s.mtimeMs) };
    } catch {
      this.forget(path); // gone (moved away, deleted): nothing to take
      return;
    }
    if (this.closed || !now.isFile) return;
    const still = before !== null && before.size === now.size && before.mtimeMs === now.mtimeMs;
    if (still && (await this.whole(path, now.size, before))) {
      this.forget(path);
      this.opts.onReady(path);
      return;
    }
    if (this.closed) return;
    const old = this.pending.get(path);
    if (old) clearTimeout(old.timer);
    const version = still ? before : { since: Date.now(), said: false, writerGap: 0, nextWriterLook: 0 };
    const pending: Pending = {
      size: now.size,
      mtimeMs: now.mtimeMs,
      since: version.since,
      said: version.said,
      writerGap: version.writerGap,
      nextWriterLook: version.nextWriterLook,
      grew: (old !== undefined && (old.grew || old.size !== now.size)) || now.writtenOverMs > this.opts.stableMs,
      young: old !== undefined ? old.young : this.bornHere(now.madeMs, seenAtStartUp),
      saidWriter: old?.saidWriter ?? null,
      timer: setTimeout(() => void this.check(path, pending), this.opts.stableMs),
    };
    this.pending.set(path, pending);
  }

  /**
   * Held still: is it ready? Whole by its format (a format that cannot say, a file seen growing, or
   * a PDF or WAV born here moments before: once quiet for longQuietMs), and, only then, held open
   * for writing by no process.
   */
  private async whole(path: string, size: number, p: Pending): Promise<boolean> {
    const longQuiet = Date.now() - p.since >= this.longQuietMs;
    let c;
    try {
      c = await fileCompleteness(path, size);
    } catch {
      return false; // unreadable for a moment (moved, locked): looked at again after stableMs
    }
    switch (c.kind) {
      case 'complete':
        if ((p.grew || (p.young && appendableInPlace(c.format))) && !longQuiet) return false;
        return this.closedByWriters(path, p, longQuiet);
      case 'unknown':
        return longQuiet && this.closedByWriters(path, p, longQuiet);
      case 'incomplete':
        if (longQuiet && !p.said) {
          p.said = true;
          this.opts.onIncomplete?.(path, c.why);
        }
        return false;
      default:
        return assertNever(c, 'completeness');
    }
  }

  /** No process holds it open for writing (or this OS cannot tell: then the quiet times alone decide). */
  private async closedByWriters(path: string, p: Pending, longQuiet: boolean): Promise<boolean> {
    if (Date.now() < p.nextWriterLook) return false;
    const w = await (this.opts.openWriters ?? openWritersHere()).check(path);
    if (w.kind !== 'open') return true;
    p.writerGap = Math.min(Math.max(this.opts.stableMs, 2 * p.writerGap), this.longQuietMs);
    p.nextWriterLook = Date.now() + p.writerGap;
    if (longQuiet && p.saidWriter !== w.writer.pid) {
      p.saidWriter = w.writer.pid;
      this.opts.onIncomplete?.(path, { code: 'open_for_writing', program: w.writer.command, pid: w.writer.pid });
    }
    return false;
  }

  private get longQuietMs(): number {
    return this.opts.longQuietMs ?? LONG_QUIET_FACTOR * this.opts.stableMs;
  }

  /** Files seen but not yet quiet long enough. */
  get waiting(): number {
    return this.pending.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rescan !== null) clearTimeout(this.rescan);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    await this.watcher?.close();
    this.watcher = null;
  }
}
