// An item planned with the personal data its batch redacts (options.redact) taken out first: the
// text and every field of a row become the payload, and so the stored request body, only once
// redacted. The request is fixed at creation and re-sent as stored, so a resumed item sends the
// same redacted body under the same idempotency key. What was taken out is tallied in the payload
// (`redacted`), by field and kind.
import { Tallies } from '../privacy/redact-values';
import type { BatchContext, CapabilityModule, PlanItem, Planned } from './capability';

export function planRedacted<P>(mod: CapabilityModule<P>, item: PlanItem, ctx: BatchContext): Planned<P> {
  const kinds = ctx.options.redact;
  // Only rows travel on as text (text, tts, image, embeddings, crm); files and messages do not.
  if (kinds === undefined || kinds.length === 0 || item.kind !== 'row') return mod.plan(item, ctx);
  const tallies = new Tallies(kinds, 'sent');
  const input = mod.descriptor.input;
  const column = input.kind === 'rows' ? input.column : null;
  const text = item.text === null ? null : tallies.text(column ?? 'input', item.text);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(item.fields)) {
    // The row's own copy of the item's column is the text already counted.
    fields[k] = k === column && v === item.text && text !== null ? text : tallies.text(`fields.${k}`, v);
  }
  const planned = mod.plan({ ...item, text, fields }, ctx);
  const redacted = tallies.list();
  if (!planned.ok || redacted.length === 0 || typeof planned.payload !== 'object' || planned.payload === null) return planned;
  return { ...planned, payload: { ...planned.payload, redacted } };
}
