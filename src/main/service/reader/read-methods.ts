// The contract calls the window's reader thread answers (reader/): the window's reads of lists,
// summaries, job pages, an item, search and costs. Every other call, and every write, goes to the
// engine, as does a read the reader leaves to it (a search while the index lags, by meaning).
import type { MethodName } from '../../../shared/contract';

export const READ_METHODS = [
  'batches.list',
  'batches.get',
  'jobs.list',
  'jobs.get',
  'jobs.neighbours',
  'search.query',
  'costs.report',
] as const satisfies readonly MethodName[];

export type ReadMethod = (typeof READ_METHODS)[number];

const READS: ReadonlySet<string> = new Set(READ_METHODS);

export function isReadMethod(method: string): method is ReadMethod {
  return READS.has(method);
}
