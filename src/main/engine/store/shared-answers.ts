// Answers saved as files (speech, images) go into the team's shared store with their item's
// success: the worker's own outputs folder is on one machine, and whoever exports the batch may be
// at another desk. Files over the limit stay in the worker's outputs folder only (an export names
// the worker that has them): a query parameter is held whole in memory on both sides.
import { readFile } from 'node:fs/promises';

export const SHARED_ANSWER_MAX_MB = 64;
const SHARED_ANSWER_MAX_BYTES = SHARED_ANSWER_MAX_MB * 1024 * 1024;

/** An answer saved as a file, as the shared store keeps it. */
export interface SharedAnswer {
  name: string;
  bytes: Buffer;
}

/**
 * The saved answer's bytes for the shared store, or null when it is over the limit or cannot be
 * read back (the item is paid for and succeeded all the same; its file stays where it was saved).
 */
export async function sharedAnswerOf(saved: { path: string; name: string; bytes: number }): Promise<SharedAnswer | null> {
  if (saved.bytes > SHARED_ANSWER_MAX_BYTES) return null;
  try {
    return { name: saved.name, bytes: await readFile(saved.path) };
  } catch {
    return null;
  }
}
