import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { batchCreateSpec } from '../specs/batch-create';
import { globalOptions, openEngine } from '../context';
import { describeBatch, describeProblems } from '../format';
import { parseEur, formatEur } from '../../../shared/money';
import { BatchCapability, Tier } from '../../../shared/domain';

export const batchCreateCommand = bindCommand(batchCreateSpec, async ({ values, positionals }, io) => {
  const [capText, ...paths] = positionals;
  const cap = BatchCapability.safeParse(capText);
  if (!cap.success) throw new UsageError(`batch create needs a capability: transcribe, ocr or channel (got "${capText ?? ''}").`);
  if (paths.length === 0) throw new UsageError(`batch create ${cap.data} needs at least one ${cap.data === 'channel' ? 'CSV file' : 'file or folder'}.`);
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  if (values.channel !== undefined && cap.data !== 'channel') throw new UsageError('--channel only applies to channel batches.');
  if (values.voice !== undefined && values.channel !== 'voice') throw new UsageError('--voice only applies to --channel voice.');
  let budget: number | null = null;
  if (values.budget !== undefined) {
    budget = parseEur(values.budget);
    if (budget === null) throw new UsageError(`--budget must be an amount in EUR such as 25 or 12.50 (got "${values.budget}").`);
  }

  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const { batch, problems, alreadyQueued } = await engine.createBatch({
      capability: cap.data,
      paths,
      tier: tier.data,
      ...(values.channel !== undefined ? { channel: values.channel } : {}),
      ...(values.voice !== undefined ? { voice: values.voice } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      budget,
      allowResend: values['allow-resend'] === true,
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ batch, problems, already_queued: alreadyQueued }, null, 2)}\n`);
    } else {
      if (problems.length > 0) io.stderr.write(`${problems.length} item(s) skipped:\n${describeProblems(problems)}\n`);
      if (batch) {
        io.stdout.write(`Created batch ${batch.id}\n${describeBatch(batch)}\n`);
        io.stdout.write(`Estimated cost: ${formatEur(batch.cost.estimated, 4)} for ~${batch.units.estimated} ${batch.units.name}. Nothing is sent until you start it: batchdesk run ${batch.id}\n`);
      }
    }
    if (!batch) {
      io.stderr.write(
        alreadyQueued > 0
          ? `Nothing new: all ${alreadyQueued} item(s) are already in earlier batches (named above), so no batch was created. Add --allow-resend to send them again.\n`
          : 'Nothing to send: no valid item was found, so no batch was created.\n',
      );
      return EXIT.someFailed;
    }
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
