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

function random16(): Buffer {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const b = Buffer.from(pool.subarray(poolAt, poolAt + 16));
  poolAt += 16;
  return b;
}

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
  const b = random16();
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  const h = b.toString('hex');
  return `bd-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
