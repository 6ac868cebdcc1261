import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { indexSpec } from '../specs/index-batch';
import { globalOptions, openEngine } from '../context';
import { Tier } from '../../../shared/domain';
import { describeProblems } from '../format';
import { runBatches } from './run';
import { openChosenStore, teamRun } from './team';
import type { BatchSummary } from '../../../shared/domain';
import { AlreadyFollowed } from '../../engine/pipeline/steps-builder';
import type { Engine } from '../../engine/engine';
import type { SharedStoreHandle } from '../../engine/team/open-shared-store';
import type { Io } from '../io';
import type { ExitCode } from '../exit-codes';
import { batchLeftLines, confirmSpend, stepEstimateLines } from '../confirm-spend';

export const indexCommand = bindCommand(indexSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('index takes exactly one batch id: the batch whose results to embed.');
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  const g = globalOptions(values, io.env);
  const shared = await openChosenStore(values.store, io.env, 'worker');
  let engine;
  try {
    engine = openEngine(g, io);
  } catch (e) {
    await shared?.store.close();
    throw e;
  }
  if (shared) {
    try {
      return await teamIndex(
        engine,
        shared,
        positionals[0] ?? '',
        tier.data,
        io,
        g,
        indexQuestion(io, positionals[0] ?? '', values.tier, values.yes === true, true),
      );
    } finally {
      engine.close();
      await shared.store.close();
    }
  }
  try {
    const parent = await engine.control.resolveBatchId(positionals[0] ?? '');
    // An embeddings follow-up of this batch at this tier already exists: send what is left of it.
    let id = engine.embeddingsFollowerOf(parent, tier.data);
    const ask = indexQuestion(io, positionals[0] ?? '', values.tier, values.yes === true);
    if (id === null) {
      const preview = await engine.preview({ capability: 'embeddings', from: parent, tier: tier.data });
      const first = preview.steps[0];
      if (first && !(await ask(stepEstimateLines(`Embedding the results of ${parent}`, first), 'Nothing was sent; no batch was made.'))) return EXIT.ok;
      const created = await engine.createBatch({ capability: 'embeddings', from: parent, tier: tier.data });
      if (!created.batch) {
        io.stderr.write(`${describeProblems(created.problems, io.carry)}\n`);
        return EXIT.someFailed;
      }
      id = created.batch.id;
      io.stdout.write(`Embedding the results of ${parent} in batch ${id} (${itemsWords(created.batch, parent)}).\n`);
    } else {
      io.stdout.write(`The results of ${parent} are embedded in batch ${id}; sending what is left of it.\n`);
      if (!(await ask(batchLeftLines(await engine.control.summary(id)), 'Nothing was sent.'))) return EXIT.ok;
    }
    const code = await runBatches(engine, [id], io, g.apiUrl, g.dataDir);
    if (code === EXIT.ok) io.stdout.write(io.carry(`Search them by meaning: \`batchdesk search "WORDS" --semantic --batch ${parent}\`\n`));
    return code;
  } finally {
    engine.close();
  }
});

/** `index ID --store`: the team batch's embeddings follow-up (made in the store, or the one there), sent by this computer as a worker. */
async function teamIndex(
  engine: Engine,
  shared: SharedStoreHandle,
  idOrPrefix: string,
  tier: Tier,
  io: Io,
  g: { apiUrl: string | null; dataDir: string },
  ask: IndexQuestion,
): Promise<ExitCode> {
  const parent = await shared.control.resolveBatchId(idOrPrefix);
  let id: string;
  try {
    const [made] = await engine.teamFollowUp(shared.store, parent, { capability: 'embeddings', tier }, (line) => io.stderr.write(io.carry(`${line}\n`)));
    if (!made) throw new Error('the embeddings follow-up was not made');
    id = made.id;
    io.stdout.write(`Embedding the results of ${parent} in the team's batch ${id} (${itemsWords(await shared.control.summary(id), parent)}).\n`);
  } catch (e) {
    if (!(e instanceof AlreadyFollowed)) throw e;
    id = e.same.id;
    io.stdout.write(`The results of ${parent} are embedded in the team's batch ${id}; sending what is left of it.\n`);
  }
  const waits = `Nothing was sent; the team's batch ${id} waits: \`batchdesk index ${idOrPrefix} --store URL\` sends it.`;
  if (!(await ask(batchLeftLines(await shared.control.summary(id)), waits))) return EXIT.ok;
  const code = await teamRun(engine, shared, [id], io, g.apiUrl, g.dataDir);
  if (code === EXIT.ok) io.stdout.write(io.carry(`Search them by meaning: \`batchdesk search "WORDS" --semantic --batch ${parent} --store URL\`\n`));
  return code;
}

/** "3 item(s)", and how many of them the batch being embedded has still to make (index runs it too). */
function itemsWords(b: BatchSummary, parent: string): string {
  const coming = b.pipeline?.awaiting ?? 0;
  return `${b.total} item(s)${coming > 0 ? `, ${coming} of them as ${parent}'s items succeed: it is run too` : ''}`;
}

type IndexQuestion = (lines: string[], declined: string) => Promise<boolean>;

/** The estimate and the question before index sends (confirm-spend.ts). */
function indexQuestion(io: Io, idText: string, tierText: string | undefined, yes: boolean, shared = false): IndexQuestion {
  const command = `batchdesk index ${idText}${tierText !== undefined ? ` --tier ${tierText}` : ''}${shared ? ' --store URL' : ''}`;
  return (lines, declined) => confirmSpend(io, { lines, question: 'Send it?', command, declined, yes });
}
