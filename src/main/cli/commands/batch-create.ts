import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { batchCreateSpec } from '../specs/batch-create';
import { globalOptions, openEngine } from '../context';
import { describeBatch, describeProblems } from '../format';
import { parseEur, formatEur } from '../../../shared/money';
import { BATCH_CAPABILITIES, BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { CRM_RECORDS, OPTION_NAMES, OPTION_SCHEMAS, TEXT_TASKS } from '../../../shared/capabilities/options';
import { misplacedOptions } from '../../../shared/capabilities/request-options';

/** A closed-choice option's value, or a usage error listing the choices. */
function checked<K extends 'task' | 'record'>(name: K, v: string | undefined): (K extends 'task' ? (typeof TEXT_TASKS)[number] : (typeof CRM_RECORDS)[number]) | undefined {
  if (v === undefined) return undefined;
  const choices: readonly string[] = name === 'task' ? TEXT_TASKS : CRM_RECORDS;
  if (!choices.includes(v)) throw new UsageError(`--${name} must be ${choices.join(', ')} (got "${v}").`);
  return v as K extends 'task' ? (typeof TEXT_TASKS)[number] : (typeof CRM_RECORDS)[number];
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
    channel: values.channel,
    voice: values.voice,
    task: checked('task', values.task),
    instructions: values.instructions,
    labels: values.labels === undefined ? undefined : values.labels.split(',').map((l) => l.trim()).filter((l) => l !== ''),
    size: values.size,
    record: checked('record', values.record),
  };
  const misplaced = misplacedOptions(options);
  if (misplaced[0]) throw new UsageError(misplaced[0].message);
  for (const name of OPTION_NAMES) {
    const v = options[name];
    if (v === undefined) continue;
    const r = OPTION_SCHEMAS[name].safeParse(v);
    if (!r.success) throw new UsageError(`--${name}: ${r.error.issues[0]?.message ?? 'not valid'} (got "${String(v)}").`);
  }
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
