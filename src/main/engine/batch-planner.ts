// Turns a validated batch request into job rows: imports the sources as the capability's
// descriptor says, lets its engine module make each job (payload, units), fixes each job's
// request body and idempotency key, and prices it. Jobs are handed to a sink one by one (the
// preview keeps a sample, `createBatch` writes them in chunks), so a million-row CSV never sits
// in memory. A job that delivers what an unfinished or succeeded job of another batch already
// delivers (same message to the same person, same file or request for the same capability) is
// refused unless the user allows a resend: a batch created twice must not do everything twice.
import { basename, resolve } from 'node:path';
import type { CreateBatchParsed } from './batch-input';
import type { FileCapability, ImportProblem } from './importers/types';
import { droppedFolderOf } from './importers/dropped-folder';
import { batchNameParts, englishBatchName, type BatchNameParts } from '../../shared/capabilities/batch-name';
import { streamFiles } from './importers/import-files';
import { importMessageCsv } from './importers/import-message-csv';
import { importRows } from './importers/import-rows';
import { capabilityFor } from './capabilities/registry';
import type { BatchContext, CapabilityModule, PlanItem, Planned } from './capabilities/capability';
import { DEFAULT_MESSAGING_CHANNEL } from '../../shared/settings-rules';
import { describe } from '../../shared/capabilities/catalog';
import { optionsOf } from '../../shared/capabilities/request-options';
import { planRedacted } from './capabilities/redacted-plan';
import { assertNever } from '../../shared/domain';
import type { NewJob } from './queue/job-store';
import type { RateBook } from './costs/rate-book';
import { costOf } from './costs/rate-book';
import { fingerprintOf } from './queue/fingerprint';
import { importKeys } from './queue/idempotency-key';
import { channelKindOf } from '../../shared/rates';
import { OutputNames } from './output-names';
import { optOutValue, type OptOut } from './messaging/opt-out-list';
import { FORGOTTEN_PREFIX } from './messaging/forgotten-recipient';
import { codedProblem, problemEnglish } from '../../shared/problem-english';
import type { ProblemCode } from '../../shared/problem-codes';
import { escapeControls } from '../../shared/control-characters';

/** Where an earlier job that delivers the same thing lives. */
export interface EarlierDelivery {
  batch_id: string;
  name: string;
  state: string;
  source: string;
  created_at: number;
  /** When that batch was started; null: nobody has started it (its items wait for `run`). */
  started_at: number | null;
}

export interface PlanSink {
  add(job: NewJob): void;
  /** Forget jobs from `seq` on: a file refused after some of its rows were planned. */
  discardFrom(seq: number): void;
  /** Asked between the blocks of a file read: a promise holds the next read until the sink catches up. */
  pace?: () => Promise<void> | null;
}

export interface PlanDeps {
  rates: RateBook;
  messagingDefault?: string;
  /** What the user recognises a file by: its own path, or for a browser upload its path inside the drop. */
  label?: (path: string) => string;
  /** An earlier, not failed, not cancelled job delivering the same. */
  delivered: (delivery: string) => EarlierDelivery | null;
  /**
   * Of these fingerprints, the ones some job already has: one query for many items, so that only
   * those go on to `delivered` (most items of an import are new). Without it, every item does.
   */
  knownFingerprints?: (fingerprints: readonly bigint[]) => ReadonlySet<bigint>;
  /** The opt-out list's entry of a recipient (as sent to), or null. */
  optedOut?: (recipient: string) => OptOut | null;
}

export interface BatchPlan {
  channel: string | null;
  options: BatchContext['options'];
  count: number;
  problems: ImportProblem[];
  estimatedUnits: number;
  estimatedCost: number;
  rate: number;
  defaultName: string;
  /** The default name's parts, for a face that says it in another language (the window); null: a follow-up's. */
  nameParts: BatchNameParts | null;
  /** Items refused because an earlier batch already has them (allowed again with allowResend). */
  alreadyQueued: number;
  /** Of `count`, the e-invoices read on this computer: no request, no units, no cost. */
  einvoices: number;
  /** Recipients a CSV marks opted out (`opt_out` yes): added to the list when the batch is created. */
  newOptOuts: { recipient: string; source: string }[];
}

/** An earlier batch's item as the problem's code says it. */
function earlierCode(
  e: EarlierDelivery,
  source: string,
): Pick<Extract<ProblemCode, { code: 'already_queued' }>, 'batch' | 'name' | 'created' | 'as' | 'state'> {
  return {
    batch: e.batch_id,
    name: e.name,
    created: new Date(e.created_at).toISOString().slice(0, 10),
    as: e.source === source ? null : e.source,
    state: e.state === 'succeeded' ? 'done' : e.started_at === null ? 'not_started' : 'not_done',
  };
}

function unitOf(item: PlanItem): 'row' | 'line' | 'file' {
  return item.kind === 'file' ? 'file' : item.kind === 'row' && item.line ? 'line' : 'row';
}

/** Items checked against earlier batches in one query: a query per item was half an import's time. */
const CHECK_GROUP = 512;

interface Waiting {
  source: string;
  item: PlanItem;
  problemSource: string;
  row: number | null;
}

function isFileCapability(c: string): c is FileCapability {
  return c === 'transcribe' || c === 'ocr';
}

export async function planBatch(input: CreateBatchParsed, deps: PlanDeps, sink: PlanSink): Promise<BatchPlan> {
  const label = deps.label ?? ((p: string) => p);
  const desc = describe(input.capability);
  const mod: CapabilityModule<unknown> = capabilityFor(input.capability);
  const channel = desc.options.includes('channel') ? (input.channel ?? deps.messagingDefault ?? DEFAULT_MESSAGING_CHANNEL) : null;
  const ctx: BatchContext = { tier: input.tier, channel, options: optionsOf(input) };
  const rate = deps.rates.rate(desc.rateItem(channel), input.tier);
  const outputs = new OutputNames();
  const problems: ImportProblem[] = [];
  let count = 0;
  let estimatedUnits = 0;
  let estimatedCost = 0;
  let alreadyQueued = 0;
  // E-invoices are read here, not scanned: the default name counts them apart.
  let einvoices = 0;
  // Each job's idempotency key: this import's own UUIDv7 and the job's number
  // (queue/idempotency-key.ts); a new one after a discard, so no number's key is ever used twice.
  let keys = importKeys();

  // Each recipient this file opts out: the row that says so (its label, and its number).
  const newOptOuts = new Map<string, { source: string; row: number | null }>();

  /**
   * Plans one item; a refusal becomes a problem naming its source (and row). Its plan, delivery
   * and fingerprint, and `known` (null: ask `delivered` for every item), come from
   * `decideWaiting`, which works them out for a group of items at once.
   */
  const decide = (
    { source, item, problemSource, row }: Waiting,
    planned: Planned<unknown>,
    delivery: string,
    fingerprint: bigint,
    known: ReadonlySet<bigint> | null,
  ): void => {
    if (!planned.ok) {
      problems.push(
        codedProblem(problemSource, row, { code: 'item_refused', unit: unitOf(item), why: planned.why, value: planned.value ?? '', said: planned.message }),
      );
      return;
    }
    const recipient = mod.recipient?.(planned.payload);
    if (recipient !== undefined) {
      // People who opted out are never messaged: marked in this file, or on the list already.
      const marked = item.kind === 'message' ? item.message.optOut : undefined;
      const answer = marked === undefined ? 'no' : optOutValue(marked.value);
      if (marked !== undefined && answer === 'yes') {
        if (!newOptOuts.has(recipient)) newOptOuts.set(recipient, { source, row });
        problems.push(codedProblem(problemSource, row, { code: 'opt_out_marked', column: marked.name, value: marked.value.trim(), recipient }));
        return;
      }
      if (marked !== undefined && answer === 'unclear') {
        problems.push(codedProblem(problemSource, row, { code: 'opt_out_unclear', column: marked.name, value: marked.value.trim() }));
        return;
      }
      const since = newOptOuts.get(recipient);
      if (since !== undefined) {
        problems.push(codedProblem(problemSource, row, { code: 'opt_out_in_file', recipient, from: since.source, first: since.row }));
        return;
      }
      const listed = deps.optedOut?.(recipient) ?? null;
      if (listed) {
        problems.push(
          codedProblem(problemSource, row, {
            code: 'opt_out_listed',
            recipient,
            since: new Date(listed.addedAt).toISOString().slice(0, 10),
            from: listed.source,
            // A forgotten person's entry is a hash: named by the row's recipient, never by it.
            forgotten: listed.recipient.startsWith(FORGOTTEN_PREFIX),
          }),
        );
        return;
      }
    }
    if (!input.allowResend) {
      const earlier = known !== null && !known.has(fingerprint) ? null : deps.delivered(delivery);
      if (earlier) {
        alreadyQueued++;
        const code: ProblemCode = {
          code: 'already_queued',
          unit: unitOf(item),
          same: mod.sameAs(planned.payload, ctx),
          ...earlierCode(earlier, source),
          messages: desc.input.kind === 'messages',
        };
        // A file's problem starts with the file as this import names it (`source`), not its path.
        problems.push({ source: problemSource, row, message: problemEnglish(source, row, code), code });
        return;
      }
    }
    const payload = mod.nameOutput ? mod.nameOutput(planned.payload, (base, ext) => outputs.unique(base, ext)) : planned.payload;
    const cost = costOf(planned.units, rate);
    count++;
    if (item.kind === 'file' && item.file.einvoice !== undefined) einvoices++;
    estimatedUnits += planned.units;
    estimatedCost += cost;
    sink.add({
      seq: count,
      // Made now and committed with the job, before any attempt.
      idempotencyKey: keys + count,
      fingerprint,
      source,
      payloadJson: JSON.stringify(payload),
      requestBody: mod.requestBody(payload, ctx),
      estimatedUnits: planned.units,
      estimatedCost: cost,
    });
  };

  // Items wait here (at most CHECK_GROUP of them) and are decided in the order they came, so
  // numbering, problems and refusals are exactly as if each were decided on arrival.
  let waiting: Waiting[] = [];
  const decideWaiting = (): void => {
    if (waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    // One pass, in arrays of the group's size (three maps and a filter made four arrays a group).
    const n = group.length;
    const planned = new Array<Planned<unknown>>(n);
    const deliveries = new Array<string>(n);
    const fingerprints = new Array<bigint>(n);
    const asked: bigint[] = [];
    for (let i = 0; i < n; i++) {
      const p = planRedacted(mod, (group[i] as Waiting).item, ctx);
      planned[i] = p;
      if (p.ok) {
        const d = mod.delivery(p.payload, ctx);
        const fp = fingerprintOf(d);
        deliveries[i] = d;
        fingerprints[i] = fp;
        asked.push(fp);
      } else {
        deliveries[i] = '';
        fingerprints[i] = 0n;
      }
    }
    const known = input.allowResend || deps.knownFingerprints === undefined ? null : deps.knownFingerprints(asked);
    for (let i = 0; i < n; i++) decide(group[i] as Waiting, planned[i] as Planned<unknown>, deliveries[i] as string, fingerprints[i] as bigint, known);
  };
  const add = (source: string, item: PlanItem, problemSource: string, row: number | null): void => {
    // An item's source is its name wherever it is shown and exported; a file name is outside
    // text like any other (a name on Linux may hold ESC or a CR): made inert here, once.
    waiting.push({ source: escapeControls(source), item, problemSource, row });
    if (waiting.length >= CHECK_GROUP) decideWaiting();
  };

  /** Runs one streamed file import; a file refused part way takes back what it added. */
  const streamed = async (run: () => Promise<{ discard?: boolean; problems: ImportProblem[] }>): Promise<void> => {
    const firstSeq = count + 1;
    const before = { count, einvoices, estimatedUnits, estimatedCost, alreadyQueued, problems: problems.length };
    const r = await run();
    decideWaiting();
    if (r.discard) {
      sink.discardFrom(firstSeq);
      keys = importKeys();
      ({ count, einvoices, estimatedUnits, estimatedCost, alreadyQueued } = before);
      problems.length = before.problems;
    }
    // The file's problems in row order: the planner's (an item already queued, an opt-out) came
    // as rows were decided, the reader's come at its end. What the reader says of the whole file
    // keeps its place: before its first row (the file itself), or after its last (its "...and N
    // more" line, which refers to everything above it).
    const planners = problems.splice(before.problems);
    const firstRow = r.problems.findIndex((p) => p.row !== null);
    const key = (p: ImportProblem, i: number): number => p.row ?? (firstRow === -1 || i < firstRow ? -Infinity : Infinity);
    const readers = r.problems.map((p, i) => ({ p, k: key(p, i) }));
    const mine = [...planners.map((p) => ({ p, k: p.row ?? -Infinity })), ...readers].sort((a, b) => (a.k === b.k ? 0 : a.k < b.k ? -1 : 1));
    for (const { p } of mine) problems.push(p);
  };

  const spec = desc.input;
  switch (spec.kind) {
    case 'files': {
      if (!isFileCapability(input.capability)) throw new Error(`${input.capability} declares file input but has no file importer`);
      // Files are planned as they are read (a 100,000-file folder never sits in memory); the
      // import's own problems still come first, as when the files were planned after it.
      const planned = problems.length;
      const folderOf = droppedFolderOf(input.paths);
      const fileProblems = await streamFiles(
        input.paths,
        input.capability,
        (file) => {
          const folder = folderOf(file.path);
          add(label(file.path), { kind: 'file', file: folder === null ? file : { ...file, folder } }, file.path, null);
        },
        sink.pace ? { pace: sink.pace } : {},
      );
      const later = problems.splice(planned);
      for (const p of fileProblems) problems.push(p);
      for (const p of later) problems.push(p);
      break;
    }
    case 'messages': {
      const kind = channelKindOf(channel ?? DEFAULT_MESSAGING_CHANNEL);
      for (const csv of input.paths) {
        const name = basename(csv);
        // Problems name the file as its reader does (resolved), whoever found them.
        const whole = resolve(csv);
        await streamed(() =>
          importMessageCsv(csv, {
            channelKind: kind,
            nationalNumbers: input.nationalNumbers ?? null,
            pace: sink.pace,
            onRow: (message) => add(`${name} row ${message.row}`, { kind: 'message', message }, whole, message.row),
          }),
        );
      }
      break;
    }
    case 'rows': {
      const what = spec.column === null ? 'record' : spec.column;
      for (const file of input.paths) {
        const name = basename(file);
        const whole = resolve(file);
        await streamed(() =>
          importRows(file, {
            column: spec.column,
            what,
            pace: sink.pace,
            onItem: (item) => add(`${name} ${item.line ? 'line' : 'row'} ${item.row}`, { kind: 'row', ...item }, whole, item.row),
          }),
        );
      }
      break;
    }
    default:
      assertNever(spec, 'input kind');
  }
  decideWaiting();

  const nameParts = batchNameParts({ capability: input.capability, channel, paths: input.paths, count, einvoices });
  return {
    channel,
    options: ctx.options,
    count,
    problems,
    estimatedUnits,
    estimatedCost,
    rate,
    alreadyQueued,
    einvoices,
    newOptOuts: [...newOptOuts].map(([recipient, { source }]) => ({ recipient, source })),
    defaultName: englishBatchName(nameParts),
    nameParts,
  };
}
