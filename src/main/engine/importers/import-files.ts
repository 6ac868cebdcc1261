// Files and folders -> validated transcription/OCR items. Valid items always come back, whatever
// happened to the others; every skipped file comes back as a problem saying why. Small files are
// read by a worker thread in batches (read-whole.ts), big ones streamed, all checked here.
import { walkInputs, type WalkResult } from './walk';
import { FirstByContent } from './first-by-content';
import { measureFile, measureWhole, measureWholeNow, type Measured } from './measure-file';
import { mapLimit } from './pool';
import { readBatches, startWholeFileReader, type ReadBatch, type WholeFileReader } from './read-whole';
import type { FileCapability, FileItem, ImportProblem } from './types';

/** Enough parallel streamed reads (big files) to overlap disk latency without thrashing a spinning disk. */
const CONCURRENT_FILES = 4;

export interface ImportFilesOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Starts the thread that reads small files whole (tests give one that fails); null: none. */
  reader?: () => WholeFileReader | null;
}

function bySource(a: ImportProblem, b: ImportProblem): number {
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/** Sorted paths, the first (in sorted order) for each real file; links to a kept file are reported. */
function dropLinkedCopies(walked: WalkResult): { unique: string[]; problems: ImportProblem[] } {
  const { files, realPaths } = walked;
  // Sorted by UTF-16 code units, as comparing the strings with < does (the default order).
  files.sort();
  // A file reached without a link on the way is its own real path, and paths are unique: two
  // files can only be one when a link is involved, so only real paths reached through links (and
  // the paths they could collide with) need remembering. A plain folder costs no map at all.
  if (realPaths.size === 0) return { unique: files, problems: [] };
  const linked = new Set(realPaths.values());
  const firstByReal = new Map<string, string>();
  const unique: string[] = [];
  const problems: ImportProblem[] = [];
  for (const path of files) {
    const realPath = realPaths.get(path) ?? path;
    if (realPath === path && !linked.has(path)) {
      unique.push(path);
      continue;
    }
    const first = firstByReal.get(realPath);
    if (first === undefined) {
      firstByReal.set(realPath, path);
      unique.push(path);
    } else {
      problems.push({ source: path, row: null, message: `${path} is a link to the same file as ${first}; skipped, so it is processed and billed once.` });
    }
  }
  return { unique, problems };
}

function sameContent(path: string, first: string): ImportProblem {
  return {
    source: path,
    row: null,
    message: `${path} is a duplicate of ${first} (identical content); skipped, so it is not processed and billed twice. Remove one of the copies if this is not what you expected.`,
  };
}

/**
 * One batch's files, each to `take` (with its index in `files`) in order; `countDone` is called
 * as each is done.
 */
async function measureBatch(
  batch: ReadBatch,
  files: readonly string[],
  capability: FileCapability,
  signal: AbortSignal | undefined,
  countDone: () => void,
  take: (index: number, m: Measured) => void,
): Promise<void> {
  // Results held until every earlier file of the batch is done (only once one has to wait).
  const held = new Array<Measured | undefined>(batch.count);
  const later: number[] = [];
  // Files read whole with a check that never waits are done here and now, without a promise,
  // and go straight on while no earlier file is waited for: a batch's items are not all held
  // at once (what outlives a young-generation collection or two ends up in the old one).
  for (let i = 0; i < batch.count; i++) {
    signal?.throwIfAborted();
    const whole = batch.whole(i);
    const now = whole ? measureWholeNow(files[batch.start + i] ?? '', whole, capability) : null;
    if (now === null) {
      later.push(i);
      continue;
    }
    countDone();
    if (later.length === 0) take(batch.start + i, now);
    else held[i] = now;
  }
  const firstLater = later[0];
  if (firstLater === undefined) return;
  // The rest: big files streamed (a few at a time), and small ones whose check waits.
  await mapLimit(later, CONCURRENT_FILES, async (i) => {
    const path = files[batch.start + i] ?? '';
    const whole = batch.whole(i);
    held[i] = whole ? await measureWhole(path, whole, capability, signal) : await measureFile(path, capability, signal);
    countDone();
  });
  for (let i = firstLater; i < batch.count; i++) take(batch.start + i, held[i] as Measured);
}

/**
 * The valid files, one by one to `onItem`, in order of their paths; the first path (in that
 * order) of each real file and of each content is kept. Returns the problems, sorted by path.
 * Nothing grows with the number of files but the sorted paths and what dedupe needs, so a
 * 100,000-file folder goes straight into the batch in chunks.
 */
export async function streamFiles(paths: string[], capability: FileCapability, onItem: (item: FileItem) => void, opts: ImportFilesOptions = {}): Promise<ImportProblem[]> {
  const { signal, onProgress } = opts;
  // Started first, so that the thread is up by the time the walk is over.
  const reader = paths.length > 0 ? (opts.reader ?? startWholeFileReader)() : null;
  try {
    const walked = await walkInputs(paths, signal);
    const linked = dropLinkedCopies(walked);
    const problems: ImportProblem[] = [...walked.problems, ...linked.problems];
    const files = linked.unique;

    const total = files.length;
    let done = 0;
    onProgress?.(0, total);
    const firstByContent = new FirstByContent();
    const countDone = (): void => onProgress?.(++done, total);
    // In order of the paths, so "first" below means first by path.
    const take = (index: number, m: Measured): void => {
      if (!m.ok) {
        problems.push(m.problem);
        return;
      }
      const first = firstByContent.firstOrAdd(m.item.sha256, index);
      if (first === -1) onItem(m.item);
      else problems.push(sameContent(m.item.path, files[first] ?? ''));
    };
    for await (const batch of readBatches(reader, files)) await measureBatch(batch, files, capability, signal, countDone, take);
    problems.sort(bySource);
    return problems;
  } finally {
    reader?.close();
  }
}

export async function importFiles(
  paths: string[],
  capability: FileCapability,
  opts: ImportFilesOptions = {},
): Promise<{ items: FileItem[]; problems: ImportProblem[] }> {
  const items: FileItem[] = [];
  const problems = await streamFiles(paths, capability, (item) => items.push(item), opts);
  return { items, problems };
}
