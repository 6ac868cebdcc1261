// Turns a validated batch request into job rows: imports the sources, fixes each job's request
// body and idempotency key, and prices it. Jobs are handed to a sink one by one (the preview
// keeps a sample, `createBatch` writes them in chunks), so a million-row CSV never sits in memory.
// A job that delivers what an unfinished or succeeded job of another batch already delivers
// (same message to the same person, same file for the same capability) is refused unless the
// user allows a resend: a batch created twice must not message everyone twice.
import { basename } from 'node:path';
import type { CreateBatchParsed } from './batch-input';
import type { ImportProblem } from './importers/types';
import { importFiles } from './importers/import-files';
import { importMessageCsv } from './importers/import-message-csv';
import { capabilityFor } from './capabilities/registry';
import { DEFAULT_MESSAGING_CHANNEL } from '../../shared/settings-rules';
import type { ChannelPayload } from './capabilities/channel';
import type { FilePayload } from './capabilities/file-payload';
import type { NewJob } from './queue/job-store';
import type { RateBook } from './costs/rate-book';
import { costOf } from './costs/rate-book';
import { fingerprintOf, type Delivery } from './queue/fingerprint';
import { newIdempotencyKey } from './queue/idempotency-key';
import { channelKindOf } from '../../shared/rates';

/** Where an earlier job that delivers the same thing lives. */
export interface EarlierDelivery {
  batch_id: string;
  name: string;
  state: string;
  source: string;
  created_at: number;
}

export interface PlanSink {
  add(job: NewJob): void;
  /** Forget jobs from `seq` on: a file refused after some of its rows were planned. */
  discardFrom(seq: number): void;
}

export interface PlanDeps {
  rates: RateBook;
  messagingDefault?: string;
  /** What the user recognises a file by: its own path, or for a browser upload its path inside the drop. */
  label?: (path: string) => string;
  /** An earlier, not failed, not cancelled job delivering the same. */
  delivered: (d: Delivery) => EarlierDelivery | null;
}

export interface BatchPlan {
  channel: string | null;
  voice: string | null;
  count: number;
  problems: ImportProblem[];
  estimatedUnits: number;
  estimatedCost: number;
  rate: number;
  defaultName: string;
  /** Items refused because an earlier batch already has them (allowed again with allowResend). */
  alreadyQueued: number;
}

function describeEarlier(e: EarlierDelivery, source: string): string {
  const when = new Date(e.created_at).toISOString().slice(0, 10);
  const state = e.state === 'succeeded' ? 'already done' : 'not done yet';
  const as = e.source === source ? '' : `, as ${e.source}`;
  return `batch ${e.batch_id} ("${e.name}", created ${when}${as}: ${state})`;
}

export async function planBatch(input: CreateBatchParsed, deps: PlanDeps, sink: PlanSink): Promise<BatchPlan> {
  const messagingDefault = deps.messagingDefault ?? DEFAULT_MESSAGING_CHANNEL;
  const label = deps.label ?? ((p: string) => p);
  const cap = capabilityFor(input.capability);
  const channel = input.capability === 'channel' ? (input.channel ?? messagingDefault) : null;
  const voice = input.capability === 'channel' && channel === 'voice' ? (input.voice ?? null) : null;
  const ctx = { tier: input.tier, channel, voice };
  const rate = deps.rates.rate(cap.rateItem(ctx), input.tier);
  const problems: ImportProblem[] = [];
  let count = 0;
  let estimatedUnits = 0;
  let estimatedCost = 0;
  let alreadyQueued = 0;
  const resendHint = 'To do it again anyway: --allow-resend (in the window: "Include items already sent or queued").';

  /** Plans one job; returns the earlier delivery instead when it is refused as a resend. */
  const add = (source: string, payload: unknown, units: number, delivery: Delivery): EarlierDelivery | null => {
    if (!input.allowResend) {
      const earlier = deps.delivered(delivery);
      if (earlier) {
        alreadyQueued++;
        return earlier;
      }
    }
    const cost = costOf(units, rate);
    count++;
    estimatedUnits += units;
    estimatedCost += cost;
    sink.add({
      seq: count,
      // Generated now and committed with the job, before any attempt.
      idempotencyKey: newIdempotencyKey(),
      fingerprint: fingerprintOf(delivery),
      source,
      payloadJson: JSON.stringify(payload),
      requestBody: cap.requestBody(payload, ctx),
      estimatedUnits: units,
      estimatedCost: cost,
    });
    return null;
  };

  if (input.capability === 'channel') {
    const kind = channelKindOf(channel ?? messagingDefault);
    for (const csv of input.paths) {
      const firstSeq = count + 1;
      const before = { count, estimatedUnits, estimatedCost, alreadyQueued };
      const refused: ImportProblem[] = [];
      const r = await importMessageCsv(csv, {
        channelKind: kind,
        onRow: (row) => {
          const payload: ChannelPayload = { to: row.to, text: row.text, subject: row.subject, row: row.row, fields: row.fields };
          const name = channel ?? messagingDefault;
          const earlier = add(`${basename(csv)} row ${row.row}`, payload, 1, { kind: 'message', channel: name, to: row.to, text: row.text });
          if (earlier) {
            refused.push({
              source: csv,
              row: row.row,
              message: `Row ${row.row}: the same message to ${row.to} on ${name} is in ${describeEarlier(earlier, `${basename(csv)} row ${row.row}`)}; not added, so it is not sent twice. ${resendHint}`,
            });
          }
        },
      });
      if (r.discard) {
        sink.discardFrom(firstSeq);
        ({ count, estimatedUnits, estimatedCost, alreadyQueued } = before);
        problems.push(...r.problems);
        continue;
      }
      problems.push(...r.problems, ...refused);
    }
  } else {
    const r = await importFiles(input.paths, input.capability);
    problems.push(...r.problems);
    for (const item of r.items) {
      const payload: FilePayload = { ...item };
      const source = label(item.path);
      const earlier = add(source, payload, item.units, { kind: 'file', capability: input.capability, sha256: item.sha256 });
      if (earlier) {
        problems.push({
          source: item.path,
          row: null,
          message: `${source}: the same content was already given to ${input.capability} in ${describeEarlier(earlier, source)}; not added, so it is not paid for twice. ${resendHint}`,
        });
      }
    }
  }

  const first = input.paths[0] ?? '';
  return {
    channel,
    voice,
    count,
    problems,
    estimatedUnits,
    estimatedCost,
    rate,
    alreadyQueued,
    defaultName: `${input.capability}${channel ? `/${channel}` : ''} ${basename(first)}${input.paths.length > 1 ? ` +${input.paths.length - 1}` : ''}`,
  };
}
