// Files and folders -> validated transcription/OCR items. Valid items always come back, whatever
// happened to the others; every skipped file comes back as a problem saying why. Small files are
// read by a worker thread in batches (read-whole.ts), big ones streamed, all checked here.
import { walkFiles } from './walk';
import { FirstByContent } from './first-by-content';
import { measureFile, measureWhole, measureWholeNow, type Measured } from './measure-file';
import { mapLimit } from './pool';
import { readBatches, REQUEST_FILES, startWholeFileReader, type ReadBatch, type WholeFileReader } from './read-whole';
import { codedProblem } from '../../../shared/problem-english';
import type { FileCapability, FileItem, ImportProblem } from './types';
import { TimeSlice } from '../time-slice';

/** Enough parallel streamed reads (big files) to overlap disk latency without thrashing a spinning disk. */
const CONCURRENT_FILES = 4;

export interface ImportFilesOptions {
  signal?: AbortSignal;
  /**
   * Files checked, and files found so far: the walk goes on while files are read, so `found` is
   * the total only once the last files have been found (it is told before they are read).
   */
  onProgress?: (done: number, found: number) => void;
  /** Starts the thread that reads small files whole (tests give one that fails); null: none. */
  reader?: () => WholeFileReader | null;
  /** Holds the next batch of files while the items' taker is behind (its writing thread: create/import-writing.ts). */
  pace?: () => Promise<void> | null;
}

function bySource(a: ImportProblem, b: ImportProblem): number {
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/**
 * The walk's files regrouped into requests of up to REQUEST_FILES paths for the reader;
 * `found` is told the running count before each request goes.
 */
async function* requests(runs: AsyncIterable<string[]>, found: (n: number) => void): AsyncGenerator<string[]> {
  let group: string[] = [];
  let count = 0;
  for await (const run of runs) {
    for (const path of run) {
      group.push(path);
      if (group.length === REQUEST_FILES) {
        found((count += group.length));
        yield group;
        group = [];
      }
    }
  }
  if (group.length > 0) {
    found((count += group.length));
    yield group;
  }
}

function sameContent(path: string, first: string): ImportProblem {
  return codedProblem(path, null, { code: 'file_duplicate', first });
}

/** One batch's files, each to `take` in order; `countDone` is called as each is done. */
async function measureBatch(
  batch: ReadBatch,
  capability: FileCapability,
  signal: AbortSignal | undefined,
  countDone: () => void,
  take: (m: Measured) => void,
  slice: TimeSlice,
): Promise<void> {
  // Results held until every earlier file of the batch is done (only once one has to wait).
  const held = new Array<Measured | undefined>(batch.count);
  const later: number[] = [];
  // Files read whole with a check that never waits are done here and now, without a promise,
  // and go straight on while no earlier file is waited for: a batch's items are not all held
  // at once (what outlives a young-generation collection or two ends up in the old one).
  for (let i = 0; i < batch.count; i++) {
    signal?.throwIfAborted();
    // A batch is up to 1,024 files: checked in slices, so the engine's other work is not held up.
    const pause = slice.due();
    if (pause) await pause;
    const whole = batch.whole(i);
    const now = whole ? measureWholeNow(batch.path(i), whole, capability) : null;
    if (now === null) {
      later.push(i);
      continue;
    }
    countDone();
    if (later.length === 0) take(now);
    else held[i] = now;
  }
  const firstLater = later[0];
  if (firstLater === undefined) return;
  // The rest: big files streamed (a few at a time), and small ones whose check waits.
  await mapLimit(later, CONCURRENT_FILES, async (i) => {
    const path = batch.path(i);
    const whole = batch.whole(i);
    held[i] = whole ? await measureWhole(path, whole, capability, signal) : await measureFile(path, capability, signal);
    countDone();
  });
  for (let i = firstLater; i < batch.count; i++) take(held[i] as Measured);
}

/**
 * The valid files, one by one to `onItem`, in order of their paths; the first path (in that
 * order) of each real file and of each content is kept. Returns the problems, sorted by path.
 * Files are read as the walk finds them: what grows with the number of files is only what dedupe
 * needs (FirstByContent: the digest and the path of each content, about 70 bytes a file), so a
 * 300,000-file folder goes straight into the batch in chunks.
 */
export async function streamFiles(
  paths: string[],
  capability: FileCapability,
  onItem: (item: FileItem) => void,
  opts: ImportFilesOptions = {},
): Promise<ImportProblem[]> {
  const { signal, onProgress } = opts;
  // Started first, so that the thread is up by the time the first files are found.
  const reader = paths.length > 0 ? (opts.reader ?? startWholeFileReader)() : null;
  try {
    const walk = walkFiles(paths, signal);
    const problems: ImportProblem[] = [];
    let done = 0;
    let found = 0;
    const firstByContent = new FirstByContent();
    const slice = new TimeSlice();
    const countDone = (): void => onProgress?.(++done, found);
    // In order of the paths, so "first" below means first by path.
    const take = (m: Measured): void => {
      if (!m.ok) {
        problems.push(m.problem);
        return;
      }
      const first = firstByContent.firstOrAdd(m.item.sha256, m.item.path);
      if (first === null) onItem(m.item);
      else problems.push(sameContent(m.item.path, first));
    };
    const groups = requests(walk.runs, (n) => {
      found = n;
      onProgress?.(done, found);
    });
    for await (const batch of readBatches(reader, groups)) {
      const behind = opts.pace?.();
      if (behind) await behind;
      await measureBatch(batch, capability, signal, countDone, take, slice);
    }
    problems.push(...walk.problems);
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
