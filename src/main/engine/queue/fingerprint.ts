// What a job delivers, so the same delivery is recognised across batches: a message is its
// channel, recipient and text; a file job is its capability and the file's content (SHA-256).
// Two jobs delivering the same thing would message the same person the same words, or pay for
// the same file twice. The stored fingerprint is a 64-bit digest (a small index, cheap to keep
// up to date at a million rows); a match is confirmed against the job's own payload.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export type Delivery = { kind: 'message'; channel: string; to: string; text: string } | { kind: 'file'; capability: string; sha256: string };

export function fingerprintOf(d: Delivery): bigint {
  const h = createHash('sha256');
  if (d.kind === 'message') h.update(`msg\0${d.channel}\0${d.to}\0${d.text}`);
  else h.update(`file\0${d.capability}\0${d.sha256}`);
  return h.digest().readBigInt64LE(0);
}

const StoredMessage = z.object({ to: z.string(), text: z.string() });
const StoredFile = z.object({ sha256: z.string() });

/** The delivery of a stored job, read back from its payload. */
export function deliveryOfStored(capability: string, channel: string | null, payloadJson: string): Delivery | null {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    return null;
  }
  if (capability === 'channel') {
    const m = StoredMessage.safeParse(payload);
    return m.success ? { kind: 'message', channel: channel ?? '', to: m.data.to, text: m.data.text } : null;
  }
  const f = StoredFile.safeParse(payload);
  return f.success ? { kind: 'file', capability, sha256: f.data.sha256 } : null;
}

export function sameDelivery(a: Delivery, b: Delivery | null): boolean {
  if (b === null || a.kind !== b.kind) return false;
  if (a.kind === 'message' && b.kind === 'message') return a.channel === b.channel && a.to === b.to && a.text === b.text;
  if (a.kind === 'file' && b.kind === 'file') return a.capability === b.capability && a.sha256 === b.sha256;
  return false;
}
