// The read calls answered from the data folder's read-only connection, with the same results as
// the engine's own handlers (handlers.ts) give for the data folder's desk (desk/local-desk.ts).
import type { Handlers } from '../handlers';
import type { ReadOnlyView } from '../../engine/reader/read-only-view';
import { JobState } from '../../../shared/domain';
import { withAbsentSource } from '../../desk/absent-source';
import { absentSource } from '../../desk/local-desk';
import type { ReadMethod } from './read-methods';
import { checkedQuery } from '../../engine/search/search-query-check';

/** Thrown for a read only the engine can answer (a search by meaning embeds the query through the API). */
export class EngineAnswers extends Error {
  override readonly name = 'EngineAnswers';
}

export function createReadHandlers(view: ReadOnlyView): Pick<Handlers, ReadMethod> {
  const c = view.control;
  return {
    'batches.list': () => view.batchList(),
    'batches.get': ({ id }) => view.batch(id),
    'jobs.list': async (arg) => view.jobPage(arg),
    'jobs.neighbours': async ({ jobId, ...q }) => view.jobNeighbours(q, jobId),
    'jobs.get': async ({ id }) => withAbsentSource(view.jobDetail(id), absentSource, 'moved'),
    'search.query': async ({ query: text, batchId, capability, limit, semantic }) => {
      const query = checkedQuery(text);
      if (semantic) throw new EngineAnswers('a search by meaning is sent to the API by the engine');
      const filters = { batchId: batchId === undefined ? undefined : await c.resolveBatchId(batchId), capability, limit: limit ?? 100 };
      return { hits: view.search(query, filters).map((h) => ({ ...h, state: JobState.parse(h.state) })) };
    },
    'costs.report': async () => view.costReport(),
  };
}
