// What a job delivers, so the same delivery is recognised across batches. Each capability module
// says it as a string (`delivery`): a message is its channel, recipient and text; a file job its
// capability and the file's content (SHA-256); a row job its capability and request body. Two
// jobs delivering the same thing would message the same person the same words, or pay for the
// same work twice. The stored fingerprint is a 64-bit digest (a small index, cheap to keep up to
// date at a million rows); a match is confirmed against the job's own payload.
import { createHash } from 'node:crypto';
import { StoredOptions } from '../../../shared/capabilities/options';
import { BatchCapability } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import type { BatchContext } from '../capabilities/capability';

export function fingerprintOf(delivery: string): bigint {
  return createHash('sha256').update(delivery).digest().readBigInt64LE(0);
}

/** The options a batch stored; unreadable options read as none. */
export function storedOptions(json: string | null): StoredOptions {
  try {
    const r = StoredOptions.safeParse(JSON.parse(json ?? '{}'));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

/** The delivery of a stored job, read back from its payload; null when it cannot be read. */
export function deliveryOfStored(batch: { capability: string; channel: string | null; tier: string; options_json: string | null }, payloadJson: string): string | null {
  const cap = BatchCapability.safeParse(batch.capability);
  if (!cap.success) return null;
  const mod = capabilityFor(cap.data);
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    return null;
  }
  const p = mod.payload.safeParse(payload);
  if (!p.success) return null;
  const ctx: BatchContext = { tier: batch.tier === 'basic' || batch.tier === 'superior' ? batch.tier : 'standard', channel: batch.channel, options: storedOptions(batch.options_json) };
  return mod.delivery(p.data, ctx);
}
