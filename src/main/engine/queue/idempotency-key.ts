// Idempotency keys are generated when a job is created and committed with it (GUIDE.md).
// A key is a UUIDv7 (RFC 9562: a millisecond, a 12-bit counter within it, 62 random bits), or for
// the jobs of an import, the import's own UUIDv7 and the job's number in its batch
// (`importKeys`): unique because the UUIDv7 is, and the number is within its batch (UNIQUE
// (batch_id, seq)). One UUIDv7 a job cost an import of 100,000 rows 50-90 ms of the planning
// thread (docs/performance.md, twelfth round); nothing needs a job's key to be random on its own,
// as the API only compares keys. Nothing looks a job up by its key, and no index checks it
// (migration 19).
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;
/** Random bytes fetched 4 KiB at a time: one call per key costs more than the key. */
const POOL_BYTES = 4096;
/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The version nibble and the 12-bit counter as the key's third group ("7xxx"), made on first use. */
const COUNTER_GROUPS: string[] = [];
/**
 * The keys' random tails ("vxxx-xxxxxxxxxxxx": the variant's two bits and 62 random bits),
 * TAIL_CHARS each, written for a pool of random bytes at once (8 bytes a key).
 */
const TAIL_CHARS = 17;
let tails = '';
let tailAt = 0;
let headMs = -1;
let head = '';

/**
 * Made of four pieces (the millisecond's head, the counter's group, a dash and a slice of a tail
 * written for 512 keys at once): a key built from a dozen hex pieces allocated about 500 bytes of
 * intermediate strings; now about 380 (a sampling heap profile: 50 -> 38 MB per 100,000 keys).
 * An import no longer makes one a job (`importKeys`), but a follow-up of a whole batch and a tier
 * comparison still do, for every item.
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
  if (tailAt >= tails.length) {
    tails = writeTails(randomBytes(POOL_BYTES));
    tailAt = 0;
  }
  const tail = tails.slice(tailAt, tailAt + TAIL_CHARS);
  tailAt += TAIL_CHARS;
  // Version 7 and the 12-bit counter; the variant's two bits, then 62 random bits.
  return `${head}${COUNTER_GROUPS[counter] ?? counterGroup(counter)}-${tail}`;
}

function counterGroup(c: number): string {
  const g = `${HEX[0x70 | (c >> 8)] ?? ''}${HEX[c & 0xff] ?? ''}`;
  COUNTER_GROUPS[c] = g;
  return g;
}

/** 8 random bytes a key: "vxxx-xxxxxxxxxxxx", the first byte's top two bits the variant (10). */
function writeTails(r: Buffer): string {
  const parts: string[] = [];
  const hex = (i: number): string => HEX[r[i] ?? 0] ?? '00';
  for (let p = 0; p + 8 <= r.length; p += 8) {
    parts.push(`${HEX[0x80 | ((r[p] ?? 0) & 0x3f)] ?? ''}${hex(p + 1)}-${hex(p + 2)}${hex(p + 3)}${hex(p + 4)}${hex(p + 5)}${hex(p + 6)}${hex(p + 7)}`);
  }
  return parts.join('');
}

/**
 * The keys of an import's jobs: `${importKeys()}${seq}` is job seq's key ("bd-<UUIDv7>-<seq>").
 * An import whose jobs from some number on are discarded (a file refused part way) takes a new
 * one, so a number given again never gets a key already made.
 */
export function importKeys(now = Date.now()): string {
  return `${newIdempotencyKey(now)}-`;
}
