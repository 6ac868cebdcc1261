import { EXIT } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { statusSpec } from '../specs/status';
import { describeBatch, describePipeline } from '../format';
import type { BatchSummary } from '../../../shared/domain';
import { openCliDesk } from '../desk';
import { teamStatus } from './team';
import { redactsItself } from '../format';
import { describe } from '../../../shared/capabilities/catalog';
import type { ReviewCounts } from '../../../shared/invoices/review-decision';

/** Batches in order, each pipeline's steps together under one line for the pipeline. */
function describeAll(batches: readonly BatchSummary[], carry: (text: string) => string, reviews: (b: BatchSummary) => ReviewCounts | null): string {
  const out: string[] = [];
  const shown = new Set<string>();
  for (const b of batches) {
    if (shown.has(b.id)) continue;
    if (!b.pipeline) {
      out.push(describeBatch(b, { carry, reviews: reviews(b) }));
      shown.add(b.id);
      continue;
    }
    const pid = b.pipeline.id;
    const steps = batches.filter((x) => x.pipeline?.id === pid).sort((x, y) => (x.pipeline?.step ?? 0) - (y.pipeline?.step ?? 0));
    for (const s of steps) shown.add(s.id);
    out.push([describePipeline(steps), ...steps.map((s) => describeBatch(s, { carry, reviews: reviews(s) }))].join('\n'));
  }
  return out.join('\n\n');
}

export const statusCommand = bindCommand(statusSpec, async ({ values, positionals }, io) => {
  const desk = await openCliDesk(values, io, { read: true });
  try {
    if (desk.team) return await teamStatus(desk.team, positionals, values.json === true, io);
    const c = desk.control;
    // Naming one step of a pipeline shows every step.
    const listed =
      positionals.length > 0 ? await c.summaries(await c.withPipelines(await Promise.all(positionals.map((p) => c.resolveBatchId(p))))) : await c.summaries();
    // What redaction took out, for the batches made with it (read from their items here).
    const engine = desk.engine();
    const batches = listed.map((b) => (redactsItself(b) ? { ...b, redacted: engine.redactions(b.id) } : b));
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ batches }, null, 2)}\n`);
    } else if (batches.length === 0) {
      io.stdout.write(io.carry('No batches yet. Create one with `batchdesk batch create ...` or try `batchdesk demo`.\n'));
    } else {
      // Invoices by outcome: the reviews are this data folder's.
      const reviews = (b: BatchSummary): ReviewCounts | null => (describe(b.capability).invoice ? desk.engine().reviews.counts(b.id) : null);
      io.stdout.write(`${describeAll(batches, io.carry, reviews)}\n`);
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
