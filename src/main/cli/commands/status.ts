import { EXIT } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { statusSpec } from '../specs/status';
import { describeBatch, describePipeline, redactsItself } from '../format';
import { describe } from '../../../shared/capabilities/catalog';
import type { ReviewCounts } from '../../../shared/invoices/review-decision';
import type { EInvoiceCounts } from '../../../shared/invoices/einvoice-counts';
import type { RuleWords } from '../../../shared/retention-rules';
import type { BatchSummary } from '../../../shared/domain';
import { leftNotes, workerState } from '../../../shared/team-batch';
import { openCliDesk } from '../desk';
import type { DeskWorkers } from '../../desk/desk';

/** Batches in order, each pipeline's steps together under one line for the pipeline; `more` adds lines under a batch. */
function describeAll<B extends BatchSummary>(batches: readonly B[], say: (b: B) => string): string {
  const out: string[] = [];
  const shown = new Set<string>();
  for (const b of batches) {
    if (shown.has(b.id)) continue;
    if (!b.pipeline) {
      out.push(say(b));
      shown.add(b.id);
      continue;
    }
    const pid = b.pipeline.id;
    const steps = batches.filter((x) => x.pipeline?.id === pid).sort((x, y) => (x.pipeline?.step ?? 0) - (y.pipeline?.step ?? 0));
    for (const s of steps) shown.add(s.id);
    out.push([describePipeline(steps), ...steps.map(say)].join('\n'));
  }
  return out.join('\n\n');
}

/** Under a batch: which of the other senders hold its items now, and why those up leave it. */
function workerLines(b: BatchSummary, w: DeskWorkers, carry: (text: string) => string): string {
  const here = w.holding.filter((x) => x.batch_id === b.id);
  const who = here.length === 0 ? '' : `\n  in flight on: ${here.map((x) => `${x.worker} (${x.running})`).join(', ')}`;
  const notSent = leftNotes(b.id, b.counts.queued + b.counts.retry_wait, w.up)
    .map((n) => `\n  ${carry(n)}`)
    .join('');
  return `${who}${notSent}`;
}

/** "Workers up: host 412 (standing, 3 in flight), laptop 77 (idle)", or that none is. */
function workersUpLine(w: DeskWorkers, storeFlag: string): string {
  if (w.up.length === 0)
    return `Workers up: none (start one with \`batchdesk run${storeFlag}\`, or \`batchdesk run --watch${storeFlag}\` to keep one standing).`;
  return `Workers up: ${w.up.map((x) => `${x.worker} (${workerState(x)})`).join(', ')}`;
}

export const statusCommand = bindCommand(statusSpec, async ({ values, positionals }, io) => {
  const desk = await openCliDesk(values, io, { read: true });
  try {
    const c = desk.control;
    // Naming one step of a pipeline shows every step.
    const listed =
      positionals.length > 0 ? await c.summaries(await c.withPipelines(await Promise.all(positionals.map((p) => c.resolveBatchId(p))))) : await c.summaries();
    // What redaction took out, for the batches made with it (summed from their items).
    const redacted = await Promise.all(listed.map(async (b) => (redactsItself(b) ? { ...b, redacted: await desk.redactions(b.id) } : b)));
    // An invoice batch's e-invoices: how many were read from their XML, with no OCR and no cost.
    const invoiced = await Promise.all(redacted.map(async (b) => (describe(b.capability).invoice ? { ...b, einvoices: await desk.einvoiceCount(b.id) } : b)));
    // Its retention rule, when one holds (its own, its pipeline's, its folder's or the default).
    const batches = await Promise.all(
      invoiced.map(async (b) => {
        const rule = await desk.retention.ruleOf(b.id);
        return rule ? { ...b, retention: rule } : b;
      }),
    );
    // Senders other than this computer (a team's workers): who holds what, and who is up.
    const w = await desk.workers();
    if (values.json) {
      const senders = w ? { workers: w.holding, workers_up: w.up } : {};
      io.stdout.write(`${JSON.stringify({ ...(desk.url !== null ? { store: desk.url } : {}), batches, ...senders }, null, 2)}\n`);
      return EXIT.ok;
    }
    const upLine = w ? `\n${io.carry(workersUpLine(w, desk.storeFlag))}\n` : '';
    if (batches.length === 0) {
      io.stdout.write(
        io.carry(`No batches yet${desk.words.inStore}. Create one with \`batchdesk batch create ...${desk.storeFlag}\` or try \`batchdesk demo\`.\n${upLine}`),
      );
    } else {
      // Invoices by outcome after review.
      const reviews = new Map<string, ReviewCounts | null>();
      for (const b of batches) if (describe(b.capability).invoice) reviews.set(b.id, await desk.reviews.counts(b.id));
      const say = (b: BatchSummary & { einvoices?: EInvoiceCounts; retention?: RuleWords }): string =>
        `${describeBatch(b, { storeFlag: desk.storeFlag, carry: io.carry, reviews: reviews.get(b.id) ?? null, einvoices: b.einvoices ?? null, retention: b.retention ?? null })}${w ? workerLines(b, w, io.carry) : ''}`;
      io.stdout.write(`${describeAll(batches, say)}\n${upLine}`);
    }
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
