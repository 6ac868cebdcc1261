// One parent item -> one follow-up job. The item is the text the parent's result offers (its
// descriptor's `offers`: a transcript, OCR text, a text result); a CRM step also gets the
// parent's result columns and the source it came from. The job keeps the parent's seq (so it
// flows in once) and source (so the user recognises it in every step), and gets its own
// idempotency key here, committed before anything can be sent.
import { basename, extname } from 'node:path';
import type { BatchCapability } from '../../../shared/domain';
import { parseRowSource } from '../../../shared/item-path';
import { describe } from '../../../shared/capabilities/catalog';
import type { BatchContext, CapabilityModule } from '../capabilities/capability';
import type { RowPayload } from '../capabilities/row-payload';
import { planRedacted } from '../capabilities/redacted-plan';
import { costOf } from '../costs/rate-book';
import { fingerprintOf } from '../queue/fingerprint';
import { newIdempotencyKey } from '../queue/idempotency-key';
import type { DerivedJob, ParentItem } from './pipeline-store';
import { storedJson } from '../stored-json';
import { itemPathOf } from '../capabilities/item-path';
import type { ItemOrigin } from '../../../shared/contract';

export interface FollowerPlan {
  batchId: string;
  capability: BatchCapability;
  mod: CapabilityModule<unknown>;
  ctx: BatchContext;
  rate: number;
}

/** "calls/2024/a.wav" -> "a": what a follow-up item and its saved answer are named after. */
export function stemOf(source: string): string {
  const row = parseRowSource(source);
  const base = basename(row ? row.file : source);
  const stem = base.slice(0, base.length - extname(base).length) || base;
  return row ? `${stem}-${row.kind}-${row.row}` : stem;
}

/** Where a follow-up item comes from, with the parent's path under what was dropped (every step shows the first step's). */
function originOf(parent: ParentItem, parentBatch: { id: string; capability: BatchCapability }): ItemOrigin {
  return { batch: parentBatch.id, job: parent.id, source: parent.source, path: itemPathOf(parentBatch.capability, parent.payload_json, parent.source) };
}

/** A follow-up item that is not sent: failed at once with why (nothing to take, or a bug). */
export function refusedJob(
  parent: ParentItem,
  parentBatch: { id: string; capability: BatchCapability },
  failure: string,
  fields: Record<string, string> = {},
  input = '',
): DerivedJob {
  const payload: RowPayload = {
    row: parent.seq,
    line: false,
    input,
    name: fields.name ?? null,
    fields,
    output: null,
    from: originOf(parent, parentBatch),
  };
  return {
    seq: parent.seq,
    idempotencyKey: newIdempotencyKey(),
    source: parent.source,
    parentJobId: parent.id,
    fingerprint: 0n,
    payloadJson: JSON.stringify(payload),
    requestBody: null,
    estimatedUnits: 0,
    estimatedCost: 0,
    failure,
  };
}

export function deriveJob(parent: ParentItem, parentBatch: { id: string; capability: BatchCapability }, f: FollowerPlan): DerivedJob {
  const parentDesc = describe(parentBatch.capability);
  const result = storedJson(parent.result_json);
  const text = parentDesc.offers(result) ?? '';
  const from = originOf(parent, parentBatch);
  const fields: Record<string, string> = {};
  if (f.capability === 'crm') {
    // A CRM record gets what the step before found, and where it came from.
    fields.source = parent.source;
    for (const [k, v] of Object.entries(parentDesc.columns(result))) if (v !== null && k !== 'text') fields[k] = String(v);
  } else {
    fields.name = stemOf(parent.source);
  }
  // The step's redaction applies here, before the payload and its request body are fixed.
  const planned = planRedacted(f.mod, { kind: 'row', row: parent.seq, line: false, text, fields }, f.ctx);
  if (!planned.ok) {
    return refusedJob(
      parent,
      parentBatch,
      `${parent.source}: the ${parentDesc.short.toLowerCase()} result offers nothing to take (${planned.message}); not sent. Nothing to do unless the step before is redone.`,
      fields,
      text,
    );
  }
  let payload: RowPayload = { ...(planned.payload as RowPayload), from };
  // Saved answers are named after the source and the item number: unique in the batch whichever
  // process adds the item, and the same on every attempt.
  if (f.mod.nameOutput) payload = f.mod.nameOutput(payload, (b, ext) => `${b}-${parent.seq}.${ext}`) as RowPayload;
  return {
    seq: parent.seq,
    idempotencyKey: newIdempotencyKey(),
    source: parent.source,
    parentJobId: parent.id,
    fingerprint: fingerprintOf(f.mod.delivery(payload, f.ctx)),
    payloadJson: JSON.stringify(payload),
    requestBody: f.mod.requestBody(payload, f.ctx),
    estimatedUnits: planned.units,
    estimatedCost: costOf(planned.units, f.rate),
    failure: null,
  };
}
