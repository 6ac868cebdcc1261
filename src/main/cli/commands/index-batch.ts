import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { indexSpec } from '../specs/index-batch';
import { globalOptions } from '../context';
import { Tier } from '../../../shared/domain';
import { describeProblems } from '../format';
import { runBatches } from './run';
import type { BatchSummary } from '../../../shared/domain';
import { openCliDesk } from '../desk';
import { confirmSpend, leftLines, stepEstimateLines } from '../confirm-spend';

export const indexCommand = bindCommand(indexSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('index takes exactly one batch id: the batch whose results to embed.');
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  const g = globalOptions(values, io.env);
  const desk = await openCliDesk(values, io, { use: 'worker' });
  try {
    const parent = await desk.control.resolveBatchId(positionals[0] ?? '');
    // An embeddings follow-up of this batch at this tier already exists: send what is left of it.
    const command = indexCommandText(positionals[0] ?? '', values.tier, desk.storeFlag);
    // Nothing left to send (items: 0) is shown, not asked about.
    const ask = (lines: string[], declined: string, items = 1): Promise<boolean> =>
      confirmSpend(io, { lines, question: 'Send it?', command, declined, yes: values.yes === true || items === 0 });
    // The estimate and the question before anything is made or sent (confirm-spend.ts).
    const estimate = await desk.embeddingsEstimate(parent, tier.data);
    if (estimate && !(await ask(stepEstimateLines(`Embedding the results of ${parent}`, estimate), 'Nothing was sent; no batch was made.'))) return EXIT.ok;
    const made = await desk.embeddings(parent, tier.data, (line) => io.stderr.write(io.carry(`${line}\n`)));
    if (made.id === null) {
      io.stderr.write(`${describeProblems(made.problems, io.carry)}\n`);
      return EXIT.someFailed;
    }
    io.stdout.write(
      made.made
        ? `Embedding the results of ${parent} in ${desk.batchNoun} ${made.id} (${itemsWords(made.made, parent)}).\n`
        : `The results of ${parent} are embedded in ${desk.batchNoun} ${made.id}; sending what is left of it.\n`,
    );
    // Asked already when it was estimated before it was made; otherwise (a follow-up there already,
    // or a team's made unstarted in its store) what is left of it is asked about now.
    const waits = `Nothing was sent; ${desk.batchNoun} ${made.id} waits: \`${command}\` sends it.`;
    if (!estimate) {
      const left = leftLines(await desk.control.leftToSend(made.id));
      if (!(await ask(left.lines, waits, left.items))) return EXIT.ok;
    }
    const code = await runBatches(desk, [made.id], io, g);
    if (code === EXIT.ok) io.stdout.write(io.carry(`Search them by meaning: \`batchdesk search "WORDS" --semantic --batch ${parent}${desk.storeFlag}\`\n`));
    return code;
  } finally {
    await desk.close();
  }
});

/** "3 item(s)", and how many of them the batch being embedded has still to make (index runs it too). */
function itemsWords(b: BatchSummary, parent: string): string {
  const coming = b.pipeline?.awaiting ?? 0;
  return `${b.total} item(s)${coming > 0 ? `, ${coming} of them as ${parent}'s items succeed: it is run too` : ''}`;
}

/** The command that runs this `index` again. */
function indexCommandText(idText: string, tierText: string | undefined, storeFlag: string): string {
  return `batchdesk index ${idText}${tierText !== undefined ? ` --tier ${tierText}` : ''}${storeFlag}`;
}
