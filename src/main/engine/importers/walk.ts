// Expands the user's chosen paths (files and folders) into a flat list of regular files.
// Hidden entries inside folders are skipped silently (a hidden file chosen by name is taken:
// the user asked for it); symlinks are followed, but a folder is
// entered at most once (by its real path), so a link loop or two links to one folder cannot make
// the walk endless or list files twice.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { describeIoError, errnoCode, rethrowAbort } from './io-problem';
import type { ImportProblem } from './types';

export interface WalkResult {
  /** Absolute path of each file as reached (through links, if any), in walk order. */
  files: string[];
  /**
   * Real path of each file whose real path is not its own path (reached through a link), used to
   * notice two links to one file. Every other file is its own real path: a plain folder costs no
   * entry here (nor an object per file).
   */
  realPaths: Map<string, string>;
  problems: ImportProblem[];
}

/** Folder listings read ahead of the walk (as the walk reaches a folder, the next few of its sub-folders). */
const READ_AHEAD = 4;

/**
 * join(folder, name) for a normalized absolute folder and a name from its listing (never '.',
 * '..' or containing a separator): the same string, built without join's normalizing pass, whose
 * intermediate strings cost a 100,000-file walk about 40 MB of short-lived memory. Joined by
 * Array#join, which makes one flat string: `folder + sep + name` is a cons string, and every path
 * the import keeps then costs 32 bytes more (9.5 MB of a 300,000-file import's 53 MB live heap).
 */
function inFolder(folder: string, name: string): string {
  return [folder, name].join(folder.endsWith(sep) ? '' : sep);
}

class Walker {
  readonly files: string[] = [];
  readonly realPaths = new Map<string, string>();
  readonly problems: ImportProblem[] = [];
  private readonly seenPaths = new Set<string>();
  /**
   * The chosen paths, and the folders they are in. Only a chosen path can be reached twice (a
   * folder is entered once, so the paths the walk builds are unique), so only those are kept in
   * `seenPaths`: the other files of a folder cost no set entry.
   */
  private readonly chosen: Set<string>;
  private readonly chosenIn: Set<string>;
  /** Listings started ahead of the walk, by folder path (each taken once). */
  private readonly listings = new Map<string, Promise<Dirent[]>>();
  private readonly reportedTwice = new Set<string>();
  /** Real path of every folder entered -> the path it was first entered by. */
  private readonly visitedDirs = new Map<string, string>();
  /** Real paths of the folders on the current descent, for telling a loop from a repeat. */
  private readonly ancestors = new Map<string, string>();

  constructor(
    inputs: readonly string[],
    private readonly signal: AbortSignal | undefined,
  ) {
    this.chosen = new Set(inputs.map((raw) => resolve(raw)));
    this.chosenIn = new Set([...this.chosen].map((p) => dirname(p)));
  }

  private problem(source: string, message: string): void {
    this.problems.push({ source, row: null, message });
  }

  async input(raw: string): Promise<void> {
    const path = resolve(raw);
    let link: Stats;
    try {
      link = await lstat(path);
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, describeIoError(path, err, 'file'));
      return;
    }
    let target: Stats = link;
    if (link.isSymbolicLink()) {
      const followed = await this.follow(path);
      if (followed === null) return;
      target = followed;
    }
    // The real path is resolved even without a link here: a parent folder may be a link.
    await this.entry(path, target, null);
  }

  /** stat() through a link; reports a dangling or looping link and returns null. */
  private async follow(path: string): Promise<Stats | null> {
    try {
      return await stat(path);
    } catch (err) {
      rethrowAbort(err, this.signal);
      const code = errnoCode(err);
      if (code === 'ENOENT') {
        this.problem(path, `${path} is a link to something that no longer exists; skipped. Fix or delete the link.`);
      } else {
        this.problem(path, describeIoError(path, err, 'file'));
      }
      return null;
    }
  }

  /** knownReal: the real path when it is cheap to know (no link on the way), else null. */
  private async entry(path: string, st: Stats | Dirent, knownReal: string | null): Promise<void> {
    if (st.isDirectory()) {
      await this.dir(path, knownReal);
    } else if (st.isFile()) {
      await this.file(path, knownReal);
    } else {
      this.problem(path, `${path} is not a regular file or folder (a device, socket or pipe); skipped. Choose ordinary files only.`);
    }
  }

  private async file(path: string, knownReal: string | null): Promise<void> {
    if (knownReal !== null) {
      this.fileNow(path, knownReal);
      return;
    }
    if (this.seenTwice(path)) return;
    let realPath: string;
    try {
      realPath = await realpath(path);
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, describeIoError(path, err, 'file'));
      return;
    }
    this.add(path, realPath);
  }

  /** A file whose real path is known: nothing to wait for (most files of a folder). */
  private fileNow(path: string, realPath: string): void {
    if (!this.seenTwice(path)) this.add(path, realPath);
  }

  private add(path: string, realPath: string): void {
    this.files.push(path);
    if (realPath !== path) this.realPaths.set(path, realPath);
  }

  /** Whether the path was taken already (then it says so, once); remembers it otherwise. */
  private seenTwice(path: string): boolean {
    if (this.seenPaths.has(path)) {
      if (!this.reportedTwice.has(path)) {
        this.reportedTwice.add(path);
        this.problem(path, `${path} was chosen more than once (directly or inside a chosen folder); it is imported once.`);
      }
      return true;
    }
    this.seenPaths.add(path);
    return false;
  }

  private async dir(path: string, knownReal: string | null): Promise<void> {
    // Taken whatever happens next, so that a folder not entered leaves nothing behind.
    const listing = this.listings.get(path);
    this.listings.delete(path);
    this.signal?.throwIfAborted();
    let real: string;
    try {
      real = knownReal ?? (await realpath(path));
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, describeIoError(path, err, 'folder'));
      return;
    }
    const ancestor = this.ancestors.get(real);
    if (ancestor !== undefined) {
      this.problem(path, `${path} links back to ${ancestor}, which contains it (a folder loop); the link was not followed. The files in ${ancestor} are imported once; remove the link if it is not needed.`);
      return;
    }
    const first = this.visitedDirs.get(real);
    if (first !== undefined) {
      const message =
        first === path
          ? `${path} was chosen more than once (directly or inside a chosen folder); its files are imported once.`
          : `${path} is the same folder as ${first}, which is already included; its files are imported once.`;
      this.problem(path, message);
      return;
    }
    this.visitedDirs.set(real, path);

    let entries: Dirent[];
    try {
      entries = (await (listing ?? readdir(path, { withFileTypes: true }))).filter((e) => !e.name.startsWith('.'));
    } catch (err) {
      rethrowAbort(err, this.signal);
      this.problem(path, `${describeIoError(path, err, 'folder')} Its files were not imported.`);
      return;
    }
    // Sorted so the walk, and therefore which copy counts as "first", never depends on the disk.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    // Files of this folder that were also chosen by their own path are checked for it.
    const holdsChosen = this.chosenIn.has(path);
    // The listings of the next few plain sub-folders are read while this one is gone through (a
    // listing waited for one at a time left this thread idle a third of a 100,000-file walk).
    const folders = entries.filter((e) => e.isDirectory());
    let ahead = 0;
    const readAhead = (upTo: number): void => {
      for (; ahead < Math.min(upTo, folders.length); ahead++) {
        const sub = inFolder(path, (folders[ahead] as Dirent).name);
        if (this.listings.has(sub)) continue;
        const listing = readdir(sub, { withFileTypes: true });
        // Its failure is reported when the walk reaches that folder (or never, if it does not).
        listing.catch(() => undefined);
        this.listings.set(sub, listing);
      }
    };
    let nextFolder = 0;

    this.ancestors.set(real, path);
    try {
      for (const e of entries) {
        const child = inFolder(path, e.name);
        if (e.isSymbolicLink()) {
          const followed = await this.follow(child);
          if (followed !== null) await this.entry(child, followed, null);
        } else {
          // The entry's type from the folder listing (Node asks lstat itself where a file system
          // does not say), so a plain file costs no call of its own here. No link on the way: the
          // real path is the parent's real path plus the name (the same string when they agree,
          // which is the usual case).
          const childReal = real === path ? child : inFolder(real, e.name);
          if (e.isFile()) {
            if (holdsChosen && this.chosen.has(child)) this.fileNow(child, childReal);
            else this.add(child, childReal);
          } else {
            if (e.isDirectory()) readAhead(++nextFolder + READ_AHEAD);
            await this.entry(child, e, childReal);
          }
        }
      }
    } finally {
      this.ancestors.delete(real);
      // Listings read ahead for folders not entered (a loop, an abort) are dropped.
      for (let i = nextFolder; i < ahead; i++) this.listings.delete(inFolder(path, (folders[i] as Dirent).name));
    }
  }
}

/** Walks inputs in the order given; files come back in walk order, problems as found. */
export async function walkInputs(inputs: readonly string[], signal?: AbortSignal): Promise<WalkResult> {
  const walker = new Walker(inputs, signal);
  for (const input of inputs) {
    signal?.throwIfAborted();
    await walker.input(input);
  }
  return { files: walker.files, realPaths: walker.realPaths, problems: walker.problems };
}
