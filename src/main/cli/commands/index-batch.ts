import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { indexSpec } from '../specs/index-batch';
import { globalOptions, openEngine } from '../context';
import { Tier } from '../../../shared/domain';
import { describeProblems } from '../format';
import { runBatches } from './run';

export const indexCommand = bindCommand(indexSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('index takes exactly one batch id: the batch whose results to embed.');
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  const g = globalOptions(values, io.env);
  const engine = openEngine(g, io.env);
  try {
    const parent = engine.resolveBatchId(positionals[0] ?? '');
    // An embeddings follow-up of this batch at this tier already exists: send what is left of it.
    let id = engine.embeddingsFollowerOf(parent, tier.data);
    if (id === null) {
      const created = await engine.createBatch({ capability: 'embeddings', from: parent, tier: tier.data });
      if (!created.batch) {
        io.stderr.write(`${describeProblems(created.problems)}\n`);
        return EXIT.someFailed;
      }
      id = created.batch.id;
      io.stdout.write(`Embedding the results of ${parent} in batch ${id} (${created.batch.total} item(s) so far).\n`);
    } else {
      io.stdout.write(`The results of ${parent} are embedded in batch ${id}; sending what is left of it.\n`);
    }
    const code = await runBatches(engine, [id], io, g.apiUrl, g.dataDir);
    if (code === EXIT.ok) io.stdout.write(`Search them by meaning: batchdesk search "WORDS" --semantic --batch ${parent}\n`);
    return code;
  } finally {
    engine.close();
  }
});
