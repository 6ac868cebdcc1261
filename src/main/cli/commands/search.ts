import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { searchSpec } from '../specs/search';
import { globalOptions, openConnection } from '../context';
import { BatchCapability, BATCH_CAPABILITIES } from '../../../shared/domain';
import { MARK_END, MARK_START, type SearchFilters, type SearchHit } from '../../engine/search/search-index';
import { openCliDesk } from '../desk';

/** A snippet with its matches in **bold**, on one line. */
function marked(snippet: string): string {
  return snippet.split(MARK_START).join('**').split(MARK_END).join('**').replace(/\s+/g, ' ').trim();
}

/** Hits grouped by batch, the batch with the best hit first, each hit by its item number. */
function describeHits(hits: readonly SearchHit[]): string {
  const groups = new Map<string, SearchHit[]>();
  for (const h of hits) groups.set(h.batch, [...(groups.get(h.batch) ?? []), h]);
  const lines: string[] = [];
  for (const [batch, group] of groups) {
    const first = group[0];
    if (!first) continue;
    lines.push(`${lines.length > 0 ? '\n' : ''}${batch}  ${first.batchName} (${first.capability})`);
    for (const h of group) lines.push(`  item ${h.seq}  ${h.source}${h.state === 'failed' ? '  [failed]' : ''}  score ${h.score}`, `    ${marked(h.snippet)}`);
  }
  return lines.join('\n');
}

export const searchCommand = bindCommand(searchSpec, async ({ values, positionals }, io) => {
  const query = positionals.join(' ').trim();
  if (query === '') throw new UsageError('search needs the words to look for, e.g. `batchdesk search "charged twice"`.');
  let capability: BatchCapability | undefined;
  if (values.capability !== undefined) {
    const c = BatchCapability.safeParse(values.capability);
    if (!c.success) throw new UsageError(`--capability must be one of ${BATCH_CAPABILITIES.join(', ')} (got "${values.capability}").`);
    capability = c.data;
  }
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000 (got "${values.limit}").`);
  const g = globalOptions(values, io.env);
  const filters = async (resolve: (idOrPrefix: string) => string | Promise<string>): Promise<SearchFilters> => ({
    batchId: values.batch === undefined ? undefined : await resolve(values.batch),
    capability,
    limit,
  });
  let hits: SearchHit[];
  // A team's shared store (--store, BATCHDESK_STORE): the words of every batch the team sent.
  const desk = await openCliDesk(values, io, { read: true });
  const storeFlag = desk.storeFlag;
  try {
    const f = await filters((p) => desk.control.resolveBatchId(p));
    if (values.semantic) {
      // The query is embedded with this computer's key (its data folder's connection).
      const conn = await openConnection(desk.engine(), g, io.env);
      try {
        hits = await desk.searchByMeaning(conn.target, query, f);
      } finally {
        await conn.close();
      }
    } else {
      hits = await desk.search(query, f);
    }
  } finally {
    await desk.close();
  }
  if (values.json) {
    const out = hits.map((h) => ({ batch: h.batch, job: h.job, item: h.seq, source: h.source, snippet: marked(h.snippet), score: h.score }));
    io.stdout.write(`${JSON.stringify({ hits: out }, null, 2)}\n`);
  } else if (hits.length === 0) {
    io.stdout.write(
      values.semantic
        ? io.carry(`Nothing embedded matches these filters. Embed the batch's results first: \`batchdesk index <batch-id>${storeFlag}\`.\n`)
        : `Nothing found for "${query}". Search covers finished items (succeeded or failed): their file names, inputs, results and errors.\n`,
    );
  } else {
    io.stdout.write(`${describeHits(hits)}\n`);
    // The list stops at the limit: say so, or a user takes the first 20 for all there is.
    if (hits.length === limit) {
      io.stdout.write(
        limit < 1000
          ? `The best ${limit === 1 ? 'hit' : `${limit} hits`}; more may match: --limit N shows up to 1000.\n`
          : 'The best 1000 hits (the most shown); more may match: narrow with more words, --batch or --capability.\n',
      );
    }
  }
  return EXIT.ok;
});
