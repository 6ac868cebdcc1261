// The team's embeddings as a search by meaning reads them (search/search-by-meaning.ts).
import type { MeaningSource } from '../search/search-by-meaning';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { Control } from '../control/control';

export function teamMeaningSource(store: PgQueueStore): MeaningSource {
  return {
    dimensions: () => store.vectorDimensions(),
    embeddedIn: (id) => store.embeddedIn(id),
    batch: (id) => store.batch(id),
    summaries: () => new Control({ store }).summaries(),
    nearest: (query, f) => store.nearest(query, f),
    runCommand: (id) => `batchdesk run ${id} --store URL`,
    indexCommand: 'batchdesk index <batch-id> --store URL',
  };
}
