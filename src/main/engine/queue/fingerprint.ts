// What a job delivers, so the same delivery is recognised across batches. Each capability module
// says it as a string (`delivery`): a message is its channel, recipient and text; a file job its
// capability and the file's content (SHA-256); a row job its capability and request body. Two
// jobs delivering the same thing would message the same person the same words, or pay for the
// same work twice. The stored fingerprint is a 64-bit digest (a small table, job_fingerprints,
// migrations 17 and 18: every job's, only visible batches' counting); a match is confirmed
// against the job's own payload.
import { hash } from 'node:crypto';
import { BatchCapability, Tier } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { contextOf } from '../capabilities/capability';

/** Where a digest's first 8 bytes are put together (little-endian on every platform, as stored). */
const digestHead = new DataView(new ArrayBuffer(8));

/**
 * The first 8 bytes of the delivery's SHA-256, read as a signed little-endian 64-bit integer (the
 * value stored since migration 17). The digest comes back as a 'binary' (latin1) string, one character per
 * byte: a third of the time of a Buffer read with readBigInt64LE (about 0.33 against 0.9-1.1 µs),
 * and no Buffer per job, which an import of 100,000 rows makes 100,000 times. Its two halves go
 * through a DataView, so that only the result is a BigInt (shifting and or-ing two made four).
 */
export function fingerprintOf(delivery: string): bigint {
  const d = hash('sha256', delivery, 'binary');
  digestHead.setInt32(0, d.charCodeAt(0) | (d.charCodeAt(1) << 8) | (d.charCodeAt(2) << 16) | (d.charCodeAt(3) << 24), true);
  digestHead.setInt32(4, d.charCodeAt(4) | (d.charCodeAt(5) << 8) | (d.charCodeAt(6) << 16) | (d.charCodeAt(7) << 24), true);
  return digestHead.getBigInt64(0, true);
}

/** The delivery of a stored job, read back from its payload; null when it cannot be read. */
export function deliveryOfStored(
  batch: { capability: string; channel: string | null; tier: string; options_json: string | null },
  payloadJson: string,
): string | null {
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
