// A search by meaning, whichever store holds the vectors (this data folder's, or a team's): the
// rules before the query is embedded (a filter naming the embeddings batch itself, nothing
// embedded yet, said with what to do) and after (vectors of another size), then the nearest hits.
import type { ApiTarget } from '../api/target';
import { isEnded, type BatchSummary } from '../../../shared/domain';
import { UserError } from '../user-error';
import { embedQuery } from './query-embedding';
import type { SearchFilters, SearchHit } from './search-index';

export interface MeaningSource {
  /** The sizes of the stored vectors. */
  dimensions(): Promise<number[]>;
  /** Whether any item of the batch (its own, or one a follow-up embedded) has a vector. */
  embeddedIn(batchId: string): Promise<boolean>;
  batch(id: string): Promise<{ id: string; capability: string; parent_id: string | null } | undefined>;
  /** Every batch, to name an embeddings batch that only has to run. */
  summaries(): Promise<BatchSummary[]>;
  nearest(query: Float32Array, f: SearchFilters): Promise<SearchHit[]>;
  /** The command that sends a batch of this store (`batchdesk run ID`, with --store for a team's). */
  runCommand(id: string): string;
  /** The command that embeds a batch's results on this store. */
  indexCommand: string;
}

export async function searchByMeaning(src: MeaningSource, target: ApiTarget, text: string, filters: SearchFilters): Promise<SearchHit[]> {
  const filtered = filters.batchId === undefined ? undefined : await src.batch(filters.batchId);
  if (filtered?.capability === 'embeddings' && filtered.parent_id !== null) {
    throw new UserError(
      `Batch ${filtered.id} holds the vectors of batch ${filtered.parent_id}'s results: search by meaning names the batch whose items were embedded (--batch ${filtered.parent_id}).`,
      { code: 'meaning_filter_embeddings', batch: filtered.id, parent: filtered.parent_id },
    );
  }
  const dims = await src.dimensions();
  if (dims.length === 0) {
    // Nothing embedded yet: name an embeddings batch that only has to run, if there is one.
    const waiting = (await src.summaries()).find((b) => b.capability === 'embeddings' && !isEnded(b.status));
    // A paused one is not helped by running it: its pause says what to do (a budget to raise...).
    if (waiting?.status === 'paused' && waiting.pause !== null) {
      throw new UserError(
        `Batch ${waiting.id} ("${waiting.name}") embeds results but is paused (${waiting.pause.kind}): ${waiting.pause.reason.replace(/\.?\s*$/, '.')} Then search by meaning.`,
        { code: 'meaning_index_waiting', batch: waiting.id, name: waiting.name, paused: true },
      );
    }
    if (waiting) {
      throw new UserError(
        `Batch ${waiting.id} ("${waiting.name}") embeds results but has not finished (${waiting.status === 'pending' ? 'not started' : waiting.status}): run it first (\`${src.runCommand(waiting.id)}\`), then search by meaning.`,
        { code: 'meaning_index_waiting', batch: waiting.id, name: waiting.name, paused: false },
      );
    }
    throw new UserError(
      `No results are embedded yet, so there is nothing to search by meaning. Embed a batch's results first: \`${src.indexCommand}\` (= batch create embeddings --from <batch-id>, then run it; in the window: Follow-up batch…, Embed for search). Or search words without --semantic.`,
      { code: 'meaning_nothing_embedded' },
    );
  }
  // A batch with nothing embedded: said before the query costs a request.
  if (filtered && !(await src.embeddedIn(filtered.id))) {
    throw new UserError(
      `Nothing of batch ${filtered.id} is embedded yet, so it cannot be searched by meaning. Embed its results first: \`${src.indexCommand.replace('<batch-id>', filtered.id)}\`.`,
      { code: 'meaning_batch_not_embedded', batch: filtered.id },
    );
  }
  const query = await embedQuery(target, text);
  if (!dims.includes(query.length)) {
    throw new UserError(
      `The API's query embedding has ${query.length} dimensions but the stored vectors have ${dims.join(', ')}: they were made by another model. Embed the results again (a new embeddings batch with --allow-resend).`,
      { code: 'meaning_dimensions', query: query.length, stored: dims },
    );
  }
  return src.nearest(query, filters);
}
