// Expands the user's chosen paths (files and folders) into regular files, streamed in the order of
// their full paths, so that an import never holds the whole list: a 300,000-file folder is read
// while it is listed. Hidden entries inside folders are skipped, and counted in one line per chosen
// folder (a hidden file chosen by name is taken: the user asked for it); symlinks are followed, but a folder is entered at most
// once (by its real path), so a link loop or two links to one folder cannot make the walk endless
// or list files twice, and of two paths to one file (through links) the first in order is kept.
//
// Order without sorting the whole list: within a folder, a sub-folder sorts as if its name ended
// in the separator (its files are "name/..."), so going through each folder's entries in that order
// gives exactly the order of sorting every full path. Chosen paths are walked in that order too. A
// chosen path inside a chosen folder is usually reached by the folder's walk (and reported as
// chosen twice); one the folder's walk does not reach (a hidden one) comes after the folder's files.
//
// A large folder is gone through a part at a time (issue 39: the engine's thread answers the
// window): listed LIST_PART entries a read, each part checked and sorted in its own stretch, the
// parts merged in order as the walk goes, and the walk gives way every few milliseconds
// (time-slice.ts). readdir of 100,000 entries made them all objects in one turn of 55-140 ms.
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { errnoCode, ioProblem, rethrowAbort } from './io-problem';
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import type { ImportProblem } from './types';
import { TimeSlice } from '../time-slice';

/** Folder listings read ahead of the walk (as the walk reaches a folder, the next few of its sub-folders). */
const READ_AHEAD = 4;
/** Paths handed on at most at once (a folder of 100,000 files is handed on in parts). */
const RUN = 1024;
/** Entries of a folder read from the disk at once, and checked and sorted together: 1-3 ms a part. */
const LIST_PART = 1024;

/** What a listed entry is, as its listing says (a link is followed later). */
const Kind = { Other: 0, File: 1, Folder: 2, Link: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * A part of a folder's listing, packed: the names joined by '\0' (no name holds one) and their
 * kinds. Listings are read a few folders ahead of the walk, and as Dirent objects they lived long
 * enough to be copied into the old generation (5 MB of a 100,000-file import, sampled).
 */
interface ListedPart {
  names: string;
  kinds: Uint8Array;
}

function packed(part: readonly Dirent[]): ListedPart {
  const kinds = new Uint8Array(part.length);
  for (let i = 0; i < part.length; i++) {
    const e = part[i] as Dirent;
    kinds[i] = e.isSymbolicLink() ? Kind.Link : e.isDirectory() ? Kind.Folder : e.isFile() ? Kind.File : Kind.Other;
  }
  return { names: part.map((e) => e.name).join('\0'), kinds };
}

/**
 * A folder's entries, LIST_PART at a time: each part is one read on libuv's pool (its first
 * entry), whose other entries are taken from opendir's buffer without a promise each (a read()
 * per entry cost 3-5 times readdir's CPU; this about the same). Only a part that ends short (the
 * folder's end) asks the disk on this thread, once, to be told so.
 */
async function listFolder(path: string): Promise<ListedPart[]> {
  const dir = await opendir(path, { bufferSize: LIST_PART });
  const parts: ListedPart[] = [];
  try {
    for (let end = false; !end;) {
      const first = await dir.read();
      if (first === null) break;
      const part = [first];
      while (part.length < LIST_PART) {
        const e = dir.readSync();
        if (e === null) {
          end = true;
          break;
        }
        part.push(e);
      }
      parts.push(packed(part));
    }
  } finally {
    await dir.close();
  }
  return parts;
}

/** Sorted runs merged into one sequence in order (ties: the earlier run first). */
function* merged<T extends { key: string }>(runs: readonly T[][]): Generator<T, void, undefined> {
  if (runs.length <= 1) {
    yield* runs[0] ?? [];
    return;
  }
  // A binary heap of the runs by their next entry's key.
  const at = runs.map(() => 0);
  const heap = runs.map((_, i) => i).filter((i) => (runs[i] as T[]).length > 0);
  const head = (r: number): T => (runs[r] as T[])[at[r] as number] as T;
  const less = (a: number, b: number): boolean => {
    const x = head(a).key;
    const y = head(b).key;
    return x < y || (x === y && a < b);
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) return;
      const r = l + 1;
      const c = r < heap.length && less(heap[r] as number, heap[l] as number) ? r : l;
      if (!less(heap[c] as number, heap[i] as number)) return;
      [heap[c], heap[i]] = [heap[i] as number, heap[c] as number];
      i = c;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const r = heap[0] as number;
    yield head(r);
    at[r] = (at[r] as number) + 1;
    if ((at[r] as number) >= (runs[r] as T[]).length) {
      const last = heap.pop() as number;
      if (heap.length === 0) return;
      heap[0] = last;
    }
    down(0);
  }
}

/**
 * join(folder, name) for a normalized absolute folder and a name from its listing (never '.',
 * '..' or containing a separator): the same string, built without join's normalizing pass, whose
 * intermediate strings cost a 100,000-file walk about 40 MB of short-lived memory. Joined by
 * Array#join, which makes one flat string: `folder + sep + name` is a cons string, and every path
 * the import keeps then costs 32 bytes more.
 */
function inFolder(folder: string, name: string): string {
  return [folder, name].join(folder.endsWith(sep) ? '' : sep);
}

function byKey<T extends { key: string }>(a: T, b: T): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** One entry of a folder, with the key that puts it in the order of full paths. */
interface Entry {
  name: string;
  /** The name, and for a folder the name and the separator. */
  key: string;
  folder: boolean;
  /** Reached through a link (its real path is looked up), or listed plainly. */
  linked: boolean;
}

/** A chosen path, looked at before the walk so that chosen paths go in the order of their files. */
interface Chosen {
  path: string;
  key: string;
  stats: Stats;
}

export interface FileWalk {
  /** The files, a run at a time, in the order of their full paths, each once. */
  runs: AsyncGenerator<string[], void, undefined>;
  /** Everything skipped, and why; complete once `runs` is done. */
  problems: ImportProblem[];
}

class Walker {
  readonly problems: ImportProblem[] = [];
  /** Files found and not yet handed on. */
  private out: string[] = [];
  private readonly seenPaths = new Set<string>();
  /**
   * The chosen paths, and the folders they are in. Only a chosen path can be reached twice (a
   * folder is entered once, so the paths the walk builds are unique), so only those are kept in
   * `seenPaths`: the other files of a folder cost no set entry.
   */
  private readonly chosen: Set<string>;
  private readonly chosenIn: Set<string>;
  /** Listings started ahead of the walk, by folder path (each taken once). */
  private readonly listings = new Map<string, Promise<ListedPart[]>>();
  /** The walk gives way to the engine's other work every few milliseconds. */
  private readonly slice = new TimeSlice();
  private readonly reportedTwice = new Set<string>();
  /** Real path of every folder entered -> the path it was first entered by. */
  private readonly visitedDirs = new Map<string, string>();
  /** Real paths of the folders on the current descent, for telling a loop from a repeat. */
  private readonly ancestors = new Map<string, string>();
  /** Real path of each file reached through a link -> the path it was taken by. */
  private readonly linkedFirst = new Map<string, string>();
  /** Chosen files taken by their own path (no link on the way): their path is their real path. */
  private readonly chosenTaken = new Set<string>();
  /** Hidden entries skipped inside the chosen path being walked, and the first name of them. */
  private hidden = { files: 0, folders: 0, first: '' };

  constructor(
    inputs: readonly string[],
    private readonly signal: AbortSignal | undefined,
  ) {
    this.chosen = new Set(inputs.map((raw) => resolve(raw)));
    this.chosenIn = new Set([...this.chosen].map((p) => dirname(p)));
  }

  private problem(source: string, code: ProblemCode): void {
    this.problems.push(codedProblem(source, null, code));
  }

  /** The chosen paths that exist, in the order their files go in (problems for the others). */
  async choose(inputs: readonly string[]): Promise<Chosen[]> {
    const chosen: Chosen[] = [];
    for (const raw of inputs) {
      this.signal?.throwIfAborted();
      const path = resolve(raw);
      let stats: Stats;
      try {
        stats = await lstat(path);
      } catch (err) {
        rethrowAbort(err, this.signal);
        this.problem(path, ioProblem(err, 'file'));
        continue;
      }
      if (stats.isSymbolicLink()) {
        const followed = await this.follow(path);
        if (followed === null) continue;
        stats = followed;
      }
      chosen.push({ path, key: stats.isDirectory() ? inFolder(path, '') : path, stats });
    }
    return chosen.sort(byKey);
  }

  /** Every chosen path's files, in order. */
  async *walk(chosen: readonly Chosen[]): AsyncGenerator<string[], void, undefined> {
    for (const c of chosen) {
      this.signal?.throwIfAborted();
      this.hidden = { files: 0, folders: 0, first: '' };
      // The real path is resolved even without a link here: a parent folder may be a link.
      yield* this.entry(c.path, c.stats, true);
      if (this.out.length > 0) yield this.handOn();
      this.sayHidden(c.path);
    }
  }

  /** One line for the hidden entries skipped in a chosen folder: a count, never a silent gap. */
  private sayHidden(path: string): void {
    const { files, folders, first } = this.hidden;
    if (files + folders === 0) return;
    this.problem(path, { code: 'hidden_skipped', files, folders, first });
  }

  private handOn(): string[] {
    const run = this.out;
    this.out = [];
    return run;
  }

  /** stat() through a link; reports a dangling or looping link and returns null. */
  private async follow(path: string): Promise<Stats | null> {
    try {
      return await stat(path);
    } catch (err) {
      rethrowAbort(err, this.signal);
      const code = errnoCode(err);
      if (code === 'ENOENT') {
        this.problem(path, { code: 'link_broken' });
      } else {
        this.problem(path, ioProblem(err, 'file'));
      }
      return null;
    }
  }

  /** A chosen path, or one reached through a link: its real path is looked up. */
  private async *entry(path: string, st: Stats, chosen: boolean): AsyncGenerator<string[], void, undefined> {
    if (st.isDirectory()) {
      yield* this.dir(path, null);
    } else if (st.isFile()) {
      if (this.seenTwice(path)) return;
      const real = await this.realFile(path);
      if (real === null) return;
      if (chosen && real === path) this.chosenTaken.add(path);
      this.take(path, real);
    } else {
      this.problem(path, { code: 'not_regular', expect: 'walk' });
    }
  }

  private async realFile(path: string): Promise<string | null> {
    try {
      return await realpath(path);
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, ioProblem(err, 'file'));
      return null;
    }
  }

  /**
   * Hands the file on unless another path to the same file (through a link) came first. Called in
   * the order of the files, so "first" is the first path in that order.
   */
  private take(path: string, realPath: string): void {
    if (realPath === path) {
      // A plain file: only a link taken before it can make it a second path.
      const first = this.linkedFirst.size > 0 ? this.linkedFirst.get(path) : undefined;
      if (first !== undefined) {
        this.linkCopy(path, first);
        return;
      }
    } else {
      const first = this.linkedFirst.get(realPath) ?? (this.takenPlainly(realPath, path) ? realPath : undefined);
      if (first !== undefined) {
        this.linkCopy(path, first);
        return;
      }
      this.linkedFirst.set(realPath, path);
    }
    this.out.push(path);
  }

  private linkCopy(path: string, first: string): void {
    this.problem(path, { code: 'same_as', folder: false, first });
  }

  /**
   * Whether the real path `real` was already taken by its own path, now that `path` (another path
   * to it) comes. Chosen by name, or listed in a folder entered by its real path: such a folder
   * hands on every file not hidden, so `real` was taken if that folder is done, or is being walked
   * and `real` comes before `path`.
   */
  private takenPlainly(real: string, path: string): boolean {
    if (this.chosenTaken.has(real)) return true;
    const folder = dirname(real);
    if (this.visitedDirs.get(folder) !== folder || basename(real).startsWith('.')) return false;
    return this.ancestors.has(folder) ? real < path : true;
  }

  /** Whether the path was taken already (then it says so, once); remembers it otherwise. */
  private seenTwice(path: string): boolean {
    if (this.seenPaths.has(path)) {
      if (!this.reportedTwice.has(path)) {
        this.reportedTwice.add(path);
        this.problem(path, { code: 'chosen_twice', folder: false });
      }
      return true;
    }
    this.seenPaths.add(path);
    return false;
  }

  /** A pause when the walk's slice of the thread is used up, else null. */
  private due(): Promise<void> | null {
    return this.slice.due();
  }

  /**
   * The folder's entries not hidden, each link followed to know whether it is a folder: one run
   * per part of the listing, each sorted.
   */
  private async entries(path: string, listed: readonly ListedPart[]): Promise<{ runs: Entry[][]; linkStats: Map<string, Stats> }> {
    const runs: Entry[][] = [];
    const linkStats = new Map<string, Stats>();
    for (const part of listed) {
      const pause = this.due();
      if (pause) await pause;
      runs.push(await this.partEntries(path, part, linkStats));
    }
    return { runs, linkStats };
  }

  /** One part of a folder's listing as entries, in order. */
  private async partEntries(path: string, part: ListedPart, linkStats: Map<string, Stats>): Promise<Entry[]> {
    const entries: Entry[] = [];
    const names = part.names.split('\0');
    for (let i = 0; i < names.length; i++) {
      const e = { name: names[i] as string, kind: part.kinds[i] as Kind };
      if (e.name.startsWith('.')) {
        if (e.kind === Kind.Folder) this.hidden.folders++;
        else this.hidden.files++;
        // The first by name, so that the line does not depend on the order the disk lists them in.
        if (this.hidden.first === '' || e.name < this.hidden.first) this.hidden.first = e.name;
        continue;
      }
      if (e.kind === Kind.Link) {
        const followed = await this.follow(inFolder(path, e.name));
        if (followed === null) continue;
        linkStats.set(e.name, followed);
        const folder = followed.isDirectory();
        entries.push({ name: e.name, key: folder ? inFolder(e.name, '') : e.name, folder, linked: true });
      } else if (e.kind === Kind.Folder) {
        entries.push({ name: e.name, key: inFolder(e.name, ''), folder: true, linked: false });
      } else if (e.kind === Kind.File) {
        entries.push({ name: e.name, key: e.name, folder: false, linked: false });
      } else {
        const child = inFolder(path, e.name);
        this.problem(child, { code: 'not_regular', expect: 'walk' });
      }
    }
    // Sorted so the walk, and therefore which copy counts as "first", never depends on the disk.
    return entries.sort(byKey);
  }

  private async *dir(path: string, knownReal: string | null): AsyncGenerator<string[], void, undefined> {
    // Taken whatever happens next, so that a folder not entered leaves nothing behind.
    const listing = this.listings.get(path);
    this.listings.delete(path);
    this.signal?.throwIfAborted();
    let real: string;
    try {
      real = knownReal ?? (await realpath(path));
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, ioProblem(err, 'folder'));
      return;
    }
    const ancestor = this.ancestors.get(real);
    if (ancestor !== undefined) {
      this.problem(path, { code: 'folder_loop', ancestor });
      return;
    }
    const first = this.visitedDirs.get(real);
    if (first !== undefined) {
      this.problem(path, first === path ? { code: 'chosen_twice', folder: true } : { code: 'same_as', folder: true, first });
      return;
    }
    this.visitedDirs.set(real, path);

    let runs: Entry[][];
    let linkStats: Map<string, Stats>;
    try {
      ({ runs, linkStats } = await this.entries(path, await (listing ?? listFolder(path))));
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, ioProblem(err, 'folder', true));
      return;
    }

    // Files of this folder that were also chosen by their own path are checked for it.
    const holdsChosen = this.chosenIn.has(path);
    // The listings of the next few plain sub-folders are read while this one is gone through (a
    // listing waited for one at a time left this thread idle a third of a 100,000-file walk).
    // The plain sub-folders in order, taken from their own merge as the read-ahead needs them.
    const moreFolders = merged(runs.map((run) => run.filter((e) => e.folder && !e.linked)));
    const folders: Entry[] = [];
    let ahead = 0;
    const readAhead = (upTo: number): void => {
      for (; ahead < upTo; ahead++) {
        if (ahead >= folders.length) {
          const next = moreFolders.next();
          if (next.done === true) return;
          folders.push(next.value);
        }
        const sub = inFolder(path, (folders[ahead] as Entry).name);
        if (this.listings.has(sub)) continue;
        const listing = listFolder(sub);
        // Its failure is reported when the walk reaches that folder (or never, if it does not).
        listing.catch(() => undefined);
        this.listings.set(sub, listing);
      }
    };
    let nextFolder = 0;

    this.ancestors.set(real, path);
    try {
      for (const e of merged(runs)) {
        const child = inFolder(path, e.name);
        if (e.linked) {
          if (this.out.length > 0) yield this.handOn();
          yield* this.entry(child, linkStats.get(e.name) as Stats, false);
        } else {
          // No link on the way: the real path is the parent's real path plus the name (the same
          // string when they agree, which is the usual case).
          const childReal = real === path ? child : inFolder(real, e.name);
          if (!e.folder) {
            if (holdsChosen && this.chosen.has(child) && this.seenTwice(child)) continue;
            this.take(child, childReal);
            if (this.out.length >= RUN) {
              yield this.handOn();
              const pause = this.due();
              if (pause) await pause;
            }
          } else {
            if (this.out.length > 0) yield this.handOn();
            readAhead(++nextFolder + READ_AHEAD);
            yield* this.dir(child, childReal);
          }
        }
      }
    } finally {
      this.ancestors.delete(real);
      // Listings read ahead for folders not entered (a loop, an abort) are dropped.
      for (let i = nextFolder; i < ahead; i++) this.listings.delete(inFolder(path, (folders[i] as Entry).name));
    }
  }
}

/**
 * Walks the chosen paths: their files come a run at a time, in the order of their full paths
 * (UTF-16 code units, as comparing the strings with < does); problems as found.
 */
export function walkFiles(inputs: readonly string[], signal?: AbortSignal): FileWalk {
  const walker = new Walker(inputs, signal);
  async function* runs(): AsyncGenerator<string[], void, undefined> {
    yield* walker.walk(await walker.choose(inputs));
  }
  return { runs: runs(), problems: walker.problems };
}
