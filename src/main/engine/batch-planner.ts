// Turns a validated batch request into job rows: imports the sources, fixes each job's request
// body and idempotency key, and prices it. Nothing is written here.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { CreateBatchParsed } from './batch-input';
import type { ImportProblem } from './importers/types';
import { importFiles } from './importers/import-files';
import { importMessageCsv } from './importers/import-message-csv';
import { capabilityFor } from './capabilities/registry';
import { DEFAULT_MESSAGING_CHANNEL } from './capabilities/channel';
import type { ChannelPayload } from './capabilities/channel';
import type { FilePayload } from './capabilities/file-payload';
import type { NewJob } from './queue/job-store';
import type { RateBook } from './costs/rate-book';
import { costOf } from './costs/rate-book';
import { channelKindOf } from '../../shared/rates';

export interface BatchPlan {
  channel: string | null;
  voice: string | null;
  jobs: NewJob[];
  problems: ImportProblem[];
  estimatedUnits: number;
  estimatedCost: number;
  rate: number;
  defaultName: string;
}

/** What the user recognises a file by: its own path, or for a browser upload its path inside the drop. */
export type SourceLabel = (path: string) => string;

export async function planBatch(
  input: CreateBatchParsed,
  rates: RateBook,
  messagingDefault = DEFAULT_MESSAGING_CHANNEL,
  label: SourceLabel = (p) => p,
): Promise<BatchPlan> {
  const cap = capabilityFor(input.capability);
  const channel = input.capability === 'channel' ? (input.channel ?? messagingDefault) : null;
  const voice = input.capability === 'channel' && channel === 'voice' ? (input.voice ?? null) : null;
  const ctx = { tier: input.tier, channel, voice };
  const rate = rates.rate(cap.rateItem(ctx), input.tier);
  const jobs: NewJob[] = [];
  const problems: ImportProblem[] = [];

  const add = (source: string, payload: unknown, units: number): void => {
    const body = cap.requestBody(payload, ctx);
    jobs.push({
      seq: jobs.length + 1,
      // Generated now and committed with the job, before any attempt.
      idempotencyKey: `bd-${randomUUID()}`,
      source,
      payloadJson: JSON.stringify(payload),
      requestBody: body,
      estimatedUnits: units,
      estimatedCost: costOf(units, rate),
    });
  };

  if (input.capability === 'channel') {
    const kind = channelKindOf(channel ?? messagingDefault);
    for (const csv of input.paths) {
      const r = await importMessageCsv(csv, { channelKind: kind });
      problems.push(...r.problems);
      for (const row of r.rows) {
        const payload: ChannelPayload = { to: row.to, text: row.text, subject: row.subject, row: row.row, fields: row.fields };
        add(`${basename(csv)} row ${row.row}`, payload, 1);
      }
    }
  } else {
    const r = await importFiles(input.paths, input.capability);
    problems.push(...r.problems);
    for (const item of r.items) {
      const payload: FilePayload = { ...item };
      add(label(item.path), payload, item.units);
    }
  }

  const estimatedUnits = jobs.reduce((s, j) => s + j.estimatedUnits, 0);
  const estimatedCost = jobs.reduce((s, j) => s + j.estimatedCost, 0);
  const first = input.paths[0] ?? '';
  return {
    channel,
    voice,
    jobs,
    problems,
    estimatedUnits,
    estimatedCost,
    rate,
    defaultName: `${input.capability}${channel ? `/${channel}` : ''} ${basename(first)}${input.paths.length > 1 ? ` +${input.paths.length - 1}` : ''}`,
  };
}
