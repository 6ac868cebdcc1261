// What a job delivers, so the same delivery is recognised across batches. Each capability module
// says it as a string (`delivery`): a message is its channel, recipient and text; a file job its
// capability and the file's content (SHA-256); a row job its capability and request body. Two
// jobs delivering the same thing would message the same person the same words, or pay for the
// same work twice. The stored fingerprint is a 64-bit digest (a small table, job_fingerprints,
// filled for visible batches: migration 17); a match is confirmed against the job's own payload.
import { hash } from 'node:crypto';
import { BatchCapability, Tier } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { contextOf } from '../capabilities/capability';

export function fingerprintOf(delivery: string): bigint {
  return hash('sha256', delivery, 'buffer').readBigInt64LE(0);
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
  const tier = Tier.safeParse(batch.tier);
  return mod.delivery(p.data, contextOf({ ...batch, tier: tier.success ? tier.data : 'standard' }));
}
