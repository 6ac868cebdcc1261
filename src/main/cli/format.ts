// Human-readable rendering of batch summaries and problems.
import { retentionWords, type RuleWords } from '../../shared/retention-rules';
import { describe } from '../../shared/capabilities/catalog';
import { reviewCountsLine, type ReviewCounts } from '../../shared/invoices/review-decision';
import { einvoiceCountsLine, type EInvoiceCounts } from '../../shared/invoices/einvoice-counts';
import { destinationWords } from '../engine/api/destination';
import { basename } from 'node:path';
import { formatWall } from '../engine/zoned-time';
import { localZone } from '../engine/messaging/recipient-zone';
import { assertNever, type BatchSummary } from '../../shared/domain';
import { formatEur } from '../../shared/money';
import { formatGap } from '../../shared/durations';
import type { ImportProblem } from '../engine/importers/types';
import { problemLine } from '../../shared/problem-line';

/** Statuses after which nothing more is sent (nothing more can be found). */
const FINISHED: ReadonlySet<BatchSummary['status']> = new Set(['done', 'done_with_failures', 'cancelled']);

const STATUS_WORDS: Record<BatchSummary['status'], string> = {
  pending: 'not started',
  running: 'in progress',
  paused: 'paused',
  cancelled: 'cancelled',
  done: 'done',
  done_with_failures: 'done, some items failed',
};

/** ", key acme (client ACME GmbH)" for a batch made for a chosen key or a client; nothing otherwise. */
function keyWords(b: BatchSummary): string {
  const parts = [b.key.label !== null ? `key ${b.key.label}` : null, b.key.client !== null ? `client ${b.key.client}` : null].filter((p) => p !== null);
  return parts.length > 0 ? `, ${parts.join(', ')}` : '';
}

/** A time as this computer shows it: its zone's wall clock, the zone named. */
export function localTime(ms: number): string {
  const zone = localZone();
  return `${formatWall(ms, zone)} ${zone}`;
}

/** The noun for `n` of them: every unit the catalog names is a plural in -s ("audio seconds"). */
export function nounFor(n: number, plural: string): string {
  return n === 1 ? plural.replace(/s$/, '') : plural;
}

/** "1 item", "2 items", "~1 message". */
export function countOf(n: number, plural: string): string {
  return `${n} ${nounFor(n, plural)}`;
}

/**
 * Where the batch's items went. E-invoices are read on this computer and sent nowhere, so a batch
 * of only e-invoices says so (whatever an older run recorded as its API), and a mixed one says
 * which items went to the API. Null while nothing was sent or read.
 */
export function whereSentLine(b: Pick<BatchSummary, 'sent_to' | 'total'>, einvoices: EInvoiceCounts | null): string | null {
  const here = einvoices?.einvoices ?? 0;
  if (here > 0 && here >= b.total) return einvoices !== null && einvoices.read > 0 ? 'read on this computer: nothing was sent, no cost' : null;
  if (b.sent_to === null) return null;
  const to = `sent to ${destinationWords(b.sent_to)}`;
  if (here === 0) return to;
  const rest = b.total - here;
  return `${to}: ${rest === 1 ? 'the one other item' : `the other ${rest} items`}; the ${countOf(here, 'e-invoices')} ${here === 1 ? 'is' : 'are'} read on this computer (nothing sent for ${here === 1 ? 'it' : 'them'}, no cost)`;
}

/**
 * `storeFlag`: what a command it names adds (Desk.storeFlag: ' --store URL' for a team's batch);
 * `carry`: the command line's `io.carry`, for the lines that suggest a command (not the name: it is data).
 */
export function describeBatch(
  b: BatchSummary,
  opts: {
    storeFlag?: string;
    carry: (text: string) => string;
    reviews?: ReviewCounts | null;
    einvoices?: EInvoiceCounts | null;
    /** The batch's retention rule (engine/retention), when one holds. */
    retention?: RuleWords | null;
  },
): string {
  const { carry } = opts;
  const c = b.counts;
  const lines = [
    `${b.id}  ${b.name}`,
    `  ${b.capability}${b.channel ? ` via ${b.channel}` : ''}, tier ${b.tier}${keyWords(b)}: ${STATUS_WORDS[b.status]}`,
    `  ${countOf(b.total, 'items')}: ${c.succeeded} succeeded, ${c.failed} failed, ${c.queued} queued, ${c.running} running, ${c.retry_wait} waiting to retry, ${c.cancelled} cancelled`,
    `  cost: ${formatEur(b.cost.spent, 4)} spent of ${formatEur(b.cost.estimated, 4)} estimated${b.cost.budget !== null ? `, budget ${formatEur(b.cost.budget, 4)}` : ''} (${b.units.measured} of ~${countOf(b.units.estimated, b.units.name)})`,
  ];
  const where = whereSentLine(b, opts.einvoices ?? null);
  if (where !== null) lines.push(`  ${where}`);
  const options = Object.entries(b.options).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : v}`);
  if (options.length > 0) lines.splice(2, 0, `  options: ${options.join('; ')}`);
  if (b.pipeline) {
    const p = b.pipeline;
    const parts = [`step ${p.step} of pipeline ${p.id}`];
    if (p.parent) parts.push(`takes the results of ${p.parent}`);
    if (p.next.length > 0) parts.push(`its results go to ${p.next.join(', ')}`);
    lines.splice(2, 0, `  ${parts.join('; ')}`);
    if (p.awaiting > 0 && !b.waiting) lines.push(`  waiting for ${p.awaiting} item(s) the steps before still work on (they join as they succeed)`);
  }
  // "213 invoices: 195 passed, 16 accepted after review, 2 rejected" (this data folder's reviews).
  if (opts.reviews && opts.reviews.invoices > 0) lines.push(`  ${reviewCountsLine(opts.reviews)}`);
  // "3 read from the e-invoice (no OCR, no cost)": what the batch did not pay OCR for.
  const einvoices = opts.einvoices ? einvoiceCountsLine(opts.einvoices) : null;
  if (einvoices !== null) lines.push(`  ${einvoices}`);
  const kept = opts.retention ? retentionWords(opts.retention) : null;
  if (kept !== null) lines.push(carry(`  retention: ${kept}`));
  if (c.needs_review > 0) {
    lines.push(
      carry(
        opts.storeFlag
          ? `  ${c.needs_review} invoice(s) need review: a check failed (\`batchdesk export ${b.id} --format invoices --out invoices.csv${opts.storeFlag}\` lists which)`
          : `  ${c.needs_review} invoice(s) need review: a check failed (\`batchdesk review --list ${b.id}\` lists them, \`batchdesk review JOB\` corrects, accepts or rejects one; in the window: Needs review)`,
      ),
    );
  }
  if (b.scheduled_for !== null)
    lines.push(
      carry(
        `  scheduled for ${localTime(Date.parse(b.scheduled_for))} (${b.scheduled_for}): nothing is sent before; \`batchdesk schedule ${b.id} --now${opts.storeFlag ?? ''}\` starts it now (--at TIME moves it, --clear removes it)`,
      ),
    );
  if (b.messaging) {
    const m = b.messaging;
    const parts = [
      m.quiet_hours === null ? null : `quiet hours ${m.quiet_hours} recipient's local time`,
      m.recipient_gap_ms > 0 ? `at least ${formatGap(m.recipient_gap_ms)} between messages to one recipient` : null,
    ].filter((x) => x !== null);
    lines.push(`  timing: ${parts.join('; ')}`);
  }
  if (b.redacted) lines.push(`  ${redactedWords(b.redacted, b.status)}`);
  if (b.pause) lines.push(`  paused (${b.pause.kind}): ${carry(b.pause.reason)}`);
  if (b.waiting) lines.push(`  ${carry(b.waiting.reason)}`);
  return lines.join('\n');
}

/** A batch made with redact that redacts something itself: what its rows send, or (redactStored) its stored copy. */
export function redactsItself(b: BatchSummary): boolean {
  return b.options.redact !== undefined && (describe(b.capability).input.kind === 'rows' || b.options.redactStored === true);
}

// What a redacted kind counts, said as nouns ("1 card number", "2 IBANs"); an unknown kind by its name.
const REDACTED_NOUNS: Record<string, readonly [string, string]> = {
  cards: ['card number', 'card numbers'],
  iban: ['IBAN', 'IBANs'],
  phones: ['phone number', 'phone numbers'],
  emails: ['e-mail address', 'e-mail addresses'],
  'dates-of-birth': ['date of birth', 'dates of birth'],
};

/**
 * "redacted: 2 card numbers, 1 IBAN ... in what items sent on; 4 ... in the stored copy" (kinds with
 * none left out); `status`: a batch that can still send says "so far" of finding nothing, a finished one not.
 */
export function redactedWords(r: NonNullable<BatchSummary['redacted']>, status: BatchSummary['status']): string {
  const kinds = (c: Record<string, number>): string =>
    Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => {
        const nouns = REDACTED_NOUNS[k];
        return `${n} ${nouns === undefined ? k : nouns[n === 1 ? 0 : 1]}`;
      })
      .join(', ');
  const sent = kinds(r.sent);
  const stored = kinds(r.stored);
  if (sent === '' && stored === '') return FINISHED.has(status) ? 'redacted: nothing found' : 'redacted: nothing found so far';
  const parts = [sent === '' ? null : `${sent} in what items sent on`, stored === '' ? null : `${stored} in the stored copy`].filter((p) => p !== null);
  return `redacted: ${parts.join('; ')} (${countOf(r.items, 'items')})`;
}

/** One line for a whole pipeline: its steps in order and what they spent together. */
export function describePipeline(steps: readonly BatchSummary[]): string {
  const spent = steps.reduce((n, b) => n + b.cost.spent, 0);
  const estimated = steps.reduce((n, b) => n + b.cost.estimated, 0);
  const budget = steps.find((b) => b.pipeline?.step === 1)?.cost.budget ?? null;
  // A chain reads left to right; a batch with several follow-ups says which step each one takes from.
  const linear = steps.every((b, i) => i === 0 || b.pipeline?.parent === steps[i - 1]?.id);
  const step = (b: BatchSummary): string => `${b.capability}${stepOption(b)} ${b.counts.succeeded}/${b.total}`;
  const chain = linear ? steps.map(step).join(' → ') : steps.map((b) => `${step(b)}${b.pipeline?.parent ? ` (from ${b.pipeline.parent})` : ''}`).join('; ');
  return `Pipeline ${steps[0]?.pipeline?.id ?? ''}: ${chain}; ${formatEur(spent, 4)} spent of ${formatEur(estimated, 4)} estimated${budget !== null ? `, budget ${formatEur(budget, 4)}` : ''}`;
}

function stepOption(b: BatchSummary): string {
  const v = b.options.task ?? b.options.record ?? b.options.voice ?? b.options.size;
  return typeof v === 'string' ? ` (${v})` : '';
}

/** Problems listed one per line; the rest are counted (an import refusing 100,000 rows printed 33 MB). */
export const PROBLEM_LINES = 50;

/**
 * Each problem as a line naming its file and row once ("msgs.csv row 3: ...", shared/problem-line.ts,
 * as the window shows them). At most `PROBLEM_LINES`, then how many more and where every one is
 * (`more`, e.g. "--json lists every one"). `carry`: the command line's `io.carry`.
 */
export function describeProblems(
  problems: readonly Pick<ImportProblem, 'source' | 'row' | 'message'>[],
  carry: (text: string) => string,
  more?: string,
): string {
  const lines = problems.slice(0, PROBLEM_LINES).map((p) => `  ! ${carry(problemLine(basename(p.source), p))}`);
  const rest = problems.length - PROBLEM_LINES;
  if (rest > 0) lines.push(`  ! and ${rest.toLocaleString('en')} more${more !== undefined ? `; ${more}` : ''}`);
  return lines.join('\n');
}

/** Resuming a cancelled batch is refused (exit 2): what it did not send belongs in a new batch. */
export function cancelledNotResumed(id: string): string {
  return `${id} was cancelled, so it cannot be resumed (nothing was changed). Create a new batch for what is left.`;
}

/**
 * What `cancel` did: the steps of the pipeline of `id` it cancelled, and the finished ones it left
 * as they are; `whole` names every step when all were cancelled.
 */
export function cancelledWords(
  id: string,
  c: { cancelled: readonly string[]; finished: readonly string[]; jobs: number },
  whole: string,
  /** Who it reaches: the desk's word (" for every worker" on a team's store). */
  where: string,
): string {
  const items = `${c.jobs} queued item(s)${c.cancelled.length + c.finished.length > 1 ? ' in the pipeline' : ''} will not be sent.`;
  if (c.finished.length === 0) return `Cancelled ${id}${whole}${where}: ${items}`;
  return `Cancelled ${c.cancelled.join(', ')}, the step(s) of ${id}'s pipeline with work left (finished ones stay as they are: ${c.finished.join(', ')})${where}: ${items}`;
}

/** What `pause` says of a batch that was not running: why, and (done with failures) what to do. */
export function notRunning(b: Pick<BatchSummary, 'id' | 'status' | 'pause'>, store: string): string {
  switch (b.status) {
    case 'cancelled':
      return `${b.id} was not running: it was cancelled.`;
    case 'done':
      return `${b.id} was not running: it is done.`;
    case 'done_with_failures':
      return `${b.id} was not running: it is done (\`batchdesk retry ${b.id}${store}\` queues its failed items again).`;
    case 'paused':
      return `${b.id} was not running: it is already paused${b.pause ? ` (${b.pause.kind})` : ''}; \`batchdesk resume ${b.id}${store}\` continues it.`;
    case 'pending':
      return `${b.id} was not running: it has not been started (\`batchdesk run ${b.id}${store}\` starts it).`;
    case 'running':
      return `${b.id} was not running.`;
    default:
      return assertNever(b.status, 'batch status');
  }
}

/**
 * `resume --switch-api` of a batch with nothing left to send: refused, so that it keeps the record
 * of where its items went (null: there is something to switch).
 */
export function nothingToSwitch(b: Pick<BatchSummary, 'id' | 'status' | 'sent_to'>, storeFlag: string): string | null {
  if (b.status !== 'done' && b.status !== 'done_with_failures') return null;
  const where = b.sent_to === null ? '' : `: it stays recorded as sent to ${destinationWords(b.sent_to)}`;
  const retry =
    b.status === 'done_with_failures'
      ? ` To send its failed items elsewhere, queue them again first (\`batchdesk retry ${b.id}${storeFlag}\`), then switch.`
      : '';
  return `Batch ${b.id} has nothing left to send (it is done)${where}; --switch-api changed nothing.${retry}`;
}
