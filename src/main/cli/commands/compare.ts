// compare: the same items of a batch sent at several tiers, then shown side by side.
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { compareSpec } from '../specs/compare';
import { globalOptions, openEngine } from '../context';
import { runBatches } from './run';
import { localDesk } from '../../desk/local-desk';
import { TIERS, type Tier } from '../../../shared/domain';
import { formatEur } from '../../../shared/money';
import type { ComparisonView } from '../../../shared/contract';
import { countOf } from '../format';
import { confirmSpend } from '../confirm-spend';
import type { Engine } from '../../engine/engine';
import type { Io } from '../io';

function parseTiers(text: string | undefined): Tier[] {
  if (text === undefined) throw new UsageError('compare needs --tiers, two or three of basic, standard, superior (such as --tiers basic,standard,superior).');
  const tiers = text.split(',').map((t) => t.trim());
  const bad = tiers.find((t) => !(TIERS as readonly string[]).includes(t));
  if (bad !== undefined) throw new UsageError(`--tiers: "${bad}" is not a tier; the tiers are ${TIERS.join(', ')}.`);
  if (tiers.length < 2 || new Set(tiers).size !== tiers.length)
    throw new UsageError('--tiers: give two or three different tiers, such as basic,standard,superior.');
  return tiers as Tier[];
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function describeComparison(v: ComparisonView): string {
  const lines = [`Tier comparison of ${v.of.id} "${v.of.name}" (${v.of.total} items, ${v.sample} compared):`];
  for (const t of v.tiers) {
    lines.push(
      `  ${t.tier.padEnd(9)} ${t.finished}/${v.sample} done${t.failed ? ` (${t.failed} failed)` : ''}, ${formatEur(t.cost, 4)} spent, ${t.perItem === null ? 'no item succeeded' : `${formatEur(t.perItem, 4)} per item, ${formatEur(t.projected ?? 0, (t.projected ?? 0) < 10_000 ? 4 : 2)} for all ${v.of.total}`}  (batch ${t.batchId})`,
    );
  }
  for (const item of v.items) {
    lines.push('', `  ${item.source}`);
    for (const c of item.cells)
      lines.push(`    ${c.tier.padEnd(9)} ${c.cost === null ? '' : `${formatEur(c.cost, 4)}  `}${clip(c.result ?? c.error ?? c.state, 100)}`);
  }
  return lines.join('\n');
}

export const compareCommand = bindCommand(compareSpec, async ({ values, positionals }, io) => {
  const id = positionals[0];
  if (!id) throw new UsageError('compare needs the batch id: `batchdesk compare <batch-id> --tiers basic,standard,superior`.');
  const tiers = parseTiers(values.tiers);
  const sample = values.sample === undefined ? 5 : Number(values.sample);
  if (!Number.isInteger(sample) || sample < 1 || sample > 50 || !/^\d+$/.test(values.sample ?? '5'))
    throw new UsageError(`--sample must be a number of items from 1 to 50 (got "${values.sample}").`);
  const g = globalOptions(values, io.env);
  const engine = openEngine(g, io);
  try {
    const batchId = await engine.control.resolveBatchId(id);
    if (!(await askCompare(engine, io, { batchId, tiers, sample, id, yes: values.yes === true, json: values.json === true }))) return EXIT.ok;
    const made = await engine.compareTiers({ batchId, tiers, sample });
    // The comparison below says what each tier did; the batches' own summaries would repeat it.
    const code = await runBatches(
      localDesk(engine),
      made.tiers.map((t) => t.batchId),
      io,
      g,
      { describe: false },
    );
    const view = engine.comparison(made.group);
    io.stdout.write(values.json ? `${JSON.stringify(view, null, 2)}\n` : `${describeComparison(view)}\n`);
    return code === EXIT.ok ? EXIT.ok : code;
  } finally {
    engine.close();
  }
});

/** The comparison's estimate per tier, then the question (confirm-spend.ts). */
async function askCompare(
  engine: Engine,
  io: Io,
  a: { batchId: string; tiers: Tier[]; sample: number; id: string; yes: boolean; json: boolean },
): Promise<boolean> {
  const per = await engine.compareEstimate({ batchId: a.batchId, tiers: a.tiers, sample: a.sample });
  const unit = (await engine.control.summary(a.batchId)).units.name;
  const total = per.reduce((n, t) => n + t.cost, 0);
  return confirmSpend(io, {
    lines: [
      `Comparing ${per[0]?.items ?? 0} item(s) of ${a.batchId} at ${a.tiers.length} tiers, each a batch of its own, sent now:`,
      ...per.map((t) => `  ${t.tier.padEnd(9)} ~${countOf(Math.round(t.units), unit)}, ${formatEur(t.cost, 4)}`),
      `Estimated cost: ${formatEur(total, 4)} (the items' estimated units at each tier's rate).`,
    ],
    question: 'Send them?',
    command: `batchdesk compare ${a.id} --tiers ${a.tiers.join(',')} --sample ${a.sample}`,
    declined: 'Nothing was sent; no comparison was made.',
    yes: a.yes,
    toStderr: a.json,
  });
}
