import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { batchCreateSpec } from '../specs/batch-create';
import { globalOptions, openEngine } from '../context';
import { describeBatch, describeProblems } from '../format';
import { parseEur, formatEur } from '../../../shared/money';
import { BATCH_CAPABILITIES, BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { OPTION_SCHEMAS, type OptionName } from '../../../shared/capabilities/options';
import { misplacedOptions } from '../../../shared/capabilities/request-options';
import type { z } from 'zod';

/** An option's value checked by its one schema, or a usage error naming the option. */
function option<N extends OptionName>(name: N, v: unknown): z.output<(typeof OPTION_SCHEMAS)[N]> | undefined {
  if (v === undefined) return undefined;
  const r = OPTION_SCHEMAS[name].safeParse(v);
  if (!r.success) throw new UsageError(`--${name}: ${r.error.issues[0]?.message ?? 'not valid'} (got "${String(v)}").`);
  return r.data as z.output<(typeof OPTION_SCHEMAS)[N]>;
}

/** The object without its undefined entries (the request schema is strict about absent vs undefined). */
function definedOnly<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

export const batchCreateCommand = bindCommand(batchCreateSpec, async ({ values, positionals }, io) => {
  const [capText, ...paths] = positionals;
  const cap = BatchCapability.safeParse(capText);
  if (!cap.success) throw new UsageError(`batch create needs a capability: ${BATCH_CAPABILITIES.join(', ')} (got "${capText ?? ''}").`);
  const desc = describe(cap.data);
  if (paths.length === 0) throw new UsageError(`batch create ${cap.data} needs ${desc.inputHelp}.`);
  const tier = Tier.safeParse(values.tier ?? 'standard');
  if (!tier.success) throw new UsageError(`--tier must be basic, standard or superior (got "${values.tier}").`);
  const options = {
    capability: cap.data,
    channel: option('channel', values.channel),
    voice: option('voice', values.voice),
    task: option('task', values.task),
    instructions: option('instructions', values.instructions),
    labels: option('labels', values.labels?.split(',').map((l) => l.trim()).filter((l) => l !== '')),
    size: option('size', values.size),
    record: option('record', values.record),
  };
  const misplaced = misplacedOptions(options);
  if (misplaced[0]) throw new UsageError(misplaced[0].message);
  let budget: number | null = null;
  if (values.budget !== undefined) {
    budget = parseEur(values.budget);
    if (budget === null) throw new UsageError(`--budget must be an amount in EUR such as 25 or 12.50 (got "${values.budget}").`);
  }

  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const { batch, problems, alreadyQueued } = await engine.createBatch({
      paths,
      tier: tier.data,
      ...definedOnly(options),
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
