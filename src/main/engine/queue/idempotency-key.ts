// Idempotency keys are generated when a job is created and committed with it (GUIDE.md).
// They are UUIDv7 (RFC 9562): unique and unguessable enough, and ordered by time, so a million
// new keys append to the end of the unique index instead of landing on random pages of it
// (random v4 keys made importing a million rows several times slower).
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;
/** Random bytes fetched 4 KiB at a time: one call per key costs more than the key. */
let pool: Buffer = Buffer.alloc(0);
let poolAt = 0;
/** Two hex digits per byte value, and the key's first two groups for the current millisecond. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let headMs = -1;
let head = '';

/**
 * Written from a lookup table, not a Buffer made, formatted and sliced per key: half the cost,
 * which an import of 100,000 rows spends 100,000 times.
 */
export function newIdempotencyKey(now = Date.now()): string {
  // A 12-bit counter within the same millisecond keeps keys of one import in order.
  if (now <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  if (headMs !== lastMs) {
    const ms = lastMs.toString(16).padStart(12, '0');
    head = `bd-${ms.slice(0, 8)}-${ms.slice(8, 12)}-`;
    headMs = lastMs;
  }
  if (poolAt + 8 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const r = pool;
  const p = poolAt;
  poolAt += 8;
  const hex = (i: number): string => HEX[r[p + i] ?? 0] ?? '00';
  // Version 7 and the 12-bit counter; the variant's two bits, then 62 random bits.
  return `${head}${HEX[0x70 | (counter >> 8)] ?? ''}${HEX[counter & 0xff] ?? ''}-${HEX[0x80 | ((r[p] ?? 0) & 0x3f)] ?? ''}${hex(1)}-${hex(2)}${hex(3)}${hex(4)}${hex(5)}${hex(6)}${hex(7)}`;
}
