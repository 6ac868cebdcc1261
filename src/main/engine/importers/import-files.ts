// Files and folders -> validated transcription/OCR items. Valid items always come back, whatever
// happened to the others; every skipped file comes back as a problem saying why.
import { walkInputs, type WalkedFile } from './walk';
import { measureFile } from './measure-file';
import { mapLimit } from './pool';
import type { FileCapability, FileItem, ImportProblem } from './types';

/** Enough parallel reads to overlap disk latency without thrashing a spinning disk. */
const CONCURRENT_FILES = 4;

export interface ImportFilesOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Keeps the first path (in sorted order) for each real file; links to a kept file are reported. */
function dropLinkedCopies(files: WalkedFile[]): { unique: WalkedFile[]; problems: ImportProblem[] } {
  const firstByReal = new Map<string, string>();
  const unique: WalkedFile[] = [];
  const problems: ImportProblem[] = [];
  for (const f of [...files].sort(byPath)) {
    const first = firstByReal.get(f.realPath);
    if (first === undefined) {
      firstByReal.set(f.realPath, f.path);
      unique.push(f);
    } else {
      problems.push({ source: f.path, row: null, message: `${f.path} is a link to the same file as ${first}; skipped, so it is processed and billed once.` });
    }
  }
  return { unique, problems };
}

/** Keeps the first path (in sorted order) for each content hash. */
function dropSameContent(items: FileItem[]): { kept: FileItem[]; problems: ImportProblem[] } {
  const firstBySha = new Map<string, string>();
  const kept: FileItem[] = [];
  const problems: ImportProblem[] = [];
  for (const item of items) {
    const first = firstBySha.get(item.sha256);
    if (first === undefined) {
      firstBySha.set(item.sha256, item.path);
      kept.push(item);
    } else {
      problems.push({
        source: item.path,
        row: null,
        message: `${item.path} is a duplicate of ${first} (identical content); skipped, so it is not processed and billed twice. Remove one of the copies if this is not what you expected.`,
      });
    }
  }
  return { kept, problems };
}

export async function importFiles(
  paths: string[],
  capability: FileCapability,
  opts: ImportFilesOptions = {},
): Promise<{ items: FileItem[]; problems: ImportProblem[] }> {
  const { signal, onProgress } = opts;
  const walked = await walkInputs(paths, signal);
  const linked = dropLinkedCopies(walked.files);

  const total = linked.unique.length;
  let done = 0;
  onProgress?.(0, total);
  const measured = await mapLimit(linked.unique, CONCURRENT_FILES, async (f) => {
    const result = await measureFile(f.path, capability, signal);
    onProgress?.(++done, total);
    return result;
  });

  const items: FileItem[] = [];
  const problems: ImportProblem[] = [...walked.problems, ...linked.problems];
  for (const m of measured) {
    if (m.ok) items.push(m.item);
    else problems.push(m.problem);
  }
  // linked.unique was sorted, and mapLimit keeps order, so "first" below means first by path.
  const content = dropSameContent(items);
  problems.push(...content.problems);
  problems.sort((a, b) => byPath({ path: a.source }, { path: b.source }));
  return { items: content.kept, problems };
}
