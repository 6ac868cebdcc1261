// Which files of a watched folder are candidates at all: hidden files and folders and files still
// being written by a browser, a copy tool or an office program are never taken; an extension list
// narrows the rest. Pure functions, so the rules are tested without a watcher.
import { basename, relative, sep } from 'node:path';
import { BATCH_CAPABILITIES, type BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';

/** Where bad files are moved, inside the watched folder (hidden, so never watched itself). */
export const SET_ASIDE_DIR = '.batchdesk-set-aside';

/** Download and copy tools' names for a file not finished yet. */
const PARTIAL_SUFFIXES = ['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '.swp', '.filepart', '.!ut'];

/** True for a dot file, or a file inside a dot folder, below the watched folder. */
export function isHidden(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..')) return false;
  return rel.split(sep).some((part) => part.startsWith('.'));
}

/** True for a file that is still being written by its maker (by its name). */
export function isPartial(path: string): boolean {
  const name = basename(path).toLowerCase();
  if (name.startsWith('~$') || name.endsWith('~')) return true;
  return PARTIAL_SUFFIXES.some((s) => name.endsWith(s));
}

/** What the watcher does not even look at (it still descends into ordinary subfolders). */
export function ignoredPath(root: string, path: string): boolean {
  return isHidden(root, path) || isPartial(path);
}

/** True when the file's extension is on the list (null: every extension). */
export function extensionAllowed(path: string, extensions: readonly string[] | null): boolean {
  if (extensions === null) return true;
  const name = basename(path).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return extensions.includes(name.slice(dot + 1));
}

/** `--ext pdf,.PNG, jpg` -> ['pdf', 'png', 'jpg']; null for an empty list. */
export function parseExtensions(text: string | undefined | null): string[] | null {
  if (text === undefined || text === null) return null;
  const list = text
    .split(',')
    .map((e) => e.trim().toLowerCase().replace(/^\.+/, ''))
    .filter((e) => e.length > 0);
  for (const e of list) {
    if (!/^[a-z0-9_-]{1,16}$/.test(e)) throw new Error(`"${e}" is not a file extension (letters and digits, e.g. pdf,png)`);
  }
  return list.length === 0 ? null : [...new Set(list)];
}

/** Capabilities whose items are files: the only ones a folder can feed. */
export const WATCHABLE_CAPABILITIES: readonly BatchCapability[] = BATCH_CAPABILITIES.filter((c) => describe(c).input.kind === 'files');

export function isWatchable(c: BatchCapability): boolean {
  return WATCHABLE_CAPABILITIES.includes(c);
}

/** The local calendar day of a time, as YYYY-MM-DD (a watch's batch is per day where the user is). */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Local midnight at the start of the day of `ms`. */
export function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
