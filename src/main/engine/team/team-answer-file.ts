// An answer a team's worker saved as a file (speech, an image) is kept in the shared store; the
// window plays or shows a file on this computer's disk, so it is copied once into the data
// folder's exports/team-answers/ and served from there.
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { OutputFile } from '../../../shared/capabilities/catalog';
import { storedJson } from '../stored-json';
import type { JobRow } from '../store/queue-store';

interface SavedAnswers {
  savedAnswers(batchId: string, fromSeq: number, limit: number): Promise<{ seq: number; size: number | null }[]>;
  savedAnswerBytes(batchId: string, seq: number): Promise<Buffer>;
}

/** The copy of `job`'s saved answer under `dataDir`; null when it has none (not succeeded, not a file, or not in the store). */
export async function teamAnswerFile(store: SavedAnswers, job: JobRow, dataDir: string): Promise<{ path: string; mime: string; size: number } | null> {
  if (job.state !== 'succeeded') return null;
  const saved = OutputFile.safeParse(storedJson(job.result_json));
  // Only a plain file name (as a worker writes it) becomes a path here.
  if (!saved.success || basename(saved.data.file) !== saved.data.file) return null;
  const [held] = await store.savedAnswers(job.batch_id, job.seq, 1);
  if (held?.seq !== job.seq || held.size === null) return null;
  const dir = join(dataDir, 'exports', 'team-answers', job.batch_id);
  const path = join(dir, `${job.seq}-${saved.data.file}`);
  if (!existsSync(path) || statSync(path).size !== held.size) {
    mkdirSync(dir, { recursive: true });
    // Whole or not at all: the player may ask for the file again while it is written.
    const part = `${path}.${process.pid}.part`;
    writeFileSync(part, await store.savedAnswerBytes(job.batch_id, job.seq));
    renameSync(part, path);
  }
  return { path, mime: saved.data.mime, size: held.size };
}
