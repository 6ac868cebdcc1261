// Imports that will never be sealed: a create that failed, a batch moved to a shared store, or an
// import whose process died (nobody saw it). Removed chunk by chunk.
import type { Db } from '../db/connection';
import type { Logger } from '../log/logger';
import type { BatchStore } from '../queue/batch-store';
import type { JobStore } from '../queue/job-store';
import { creatorAlive } from './import-owners';
import { SkippedRowStore } from '../queue/skipped-row-store';

export interface DiscardDeps {
  db: Db;
  batches: BatchStore;
  jobs: JobStore;
}

export function deleteImports(d: DiscardDeps, ids: readonly string[]): void {
  // Last step first: a follower references its parent.
  for (const id of [...ids].reverse()) deleteImport(d, id);
}

export function deleteImport(d: DiscardDeps, id: string): void {
  // Its own commit first: from then on no runner flows an item into it while it is emptied.
  d.batches.stopImport(id);
  while (d.db.transaction(() => d.jobs.deleteImportChunk(id))() > 0) {
    // chunk by chunk, so a large abandoned import never holds the write lock for long
  }
  // Rows its import left out go with it (a batch moved to a team's store keeps them there).
  new SkippedRowStore(d.db).remove(id);
  d.batches.deleteImport(id);
}

/** Imports whose process died before they were complete: nobody saw them; remove them. */
export function removeAbandonedImports(d: DiscardDeps & { logger: Logger }): void {
  for (const { id, creator } of d.batches.unfinishedImports()) {
    if (creatorAlive(id, creator)) continue;
    d.logger.log('warn', 'batch.import_abandoned', { batch: id });
    deleteImport(d, id);
  }
}
