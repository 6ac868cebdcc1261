// A batch as `status` tells it, in one place: `status` prints it, and `run` ends with it, so the
// closing status of a run has every line a later `status` has (reviews, e-invoices, redaction,
// retention, a pipeline's line, a team's workers).
import type { Io } from './io';
import { describeBatch, describePipeline, redactsItself } from './format';
import { describe } from '../../shared/capabilities/catalog';
import type { ReviewCounts } from '../../shared/invoices/review-decision';
import type { EInvoiceCounts } from '../../shared/invoices/einvoice-counts';
import type { RuleWords } from '../../shared/retention-rules';
import type { BatchSummary } from '../../shared/domain';
import { leftNotes } from '../../shared/team-batch';
import type { Desk, DeskWorkers } from '../desk/desk';

/** A batch's summary with what `status` adds to it (also its `--json` fields). */
export type StatusBatch = BatchSummary & { einvoices?: EInvoiceCounts; retention?: RuleWords };

/** Adds what redaction took out, an invoice batch's e-invoices and the retention rule that holds. */
export async function withStatusFacts(desk: Desk, list: readonly BatchSummary[]): Promise<StatusBatch[]> {
  return Promise.all(
    list.map(async (b): Promise<StatusBatch> => {
      // What redaction took out, for the batches made with it (summed from their items).
      const redacted = redactsItself(b) ? { redacted: await desk.redactions(b.id) } : {};
      // An invoice batch's e-invoices: how many were read from their XML, with no OCR and no cost.
      const einvoices = describe(b.capability).invoice ? { einvoices: await desk.einvoiceCount(b.id) } : {};
      // Its retention rule, when one holds (its own, its pipeline's, its folder's or the default).
      const rule = await desk.retention.ruleOf(b.id);
      return { ...b, ...redacted, ...einvoices, ...(rule ? { retention: rule } : {}) };
    }),
  );
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

/** Batches in order, each pipeline's steps together under one line for the pipeline. */
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

/**
 * The batches as `status` words them, without a final line end; `workers`: the desk's other
 * senders (null on the data folder); `more`: lines the caller adds under a batch (`run`: what it
 * left to other workers), each starting with a line end.
 */
export async function statusWords(
  desk: Desk,
  batches: readonly StatusBatch[],
  io: Pick<Io, 'carry'>,
  workers: DeskWorkers | null,
  more: (b: BatchSummary) => string = () => '',
): Promise<string> {
  // Invoices by outcome after review.
  const reviews = new Map<string, ReviewCounts | null>();
  for (const b of batches) if (describe(b.capability).invoice) reviews.set(b.id, await desk.reviews.counts(b.id));
  const say = (b: StatusBatch): string =>
    `${describeBatch(b, {
      storeFlag: desk.storeFlag,
      carry: io.carry,
      reviews: reviews.get(b.id) ?? null,
      einvoices: b.einvoices ?? null,
      retention: b.retention ?? null,
    })}${workers ? workerLines(b, workers, io.carry) : ''}${more(b)}`;
  return describeAll(batches, say);
}
