// The sandbox's embeddings: deterministic, and close for texts that say the same thing in other
// words, as a real embedding model's are (A10). Words are folded to a simple stem, common words
// dropped, words of one meaning mapped to one concept ("billed", "charged", "debited"), and each
// concept hashed (with a sign) into a few of the dimensions; the vector is normalised.
import { sha256 } from './results';

export const EMBEDDING_DIMENSIONS = 64;

const STOP = new Set(
  'a an and are as at be been but by can could did do does for from had has have he her his i if in into is it its me my no not of on or our she so that the their them there they this to up us was we were what when which who will with would you your hello hi please thank thanks'.split(
    ' ',
  ),
);

/** Words of one meaning, as a model would place them close together. */
const CONCEPTS: Record<string, string> = {};
for (const [concept, words] of Object.entries({
  charge: 'charge charged charges billed bill billing debited debit deducted taken',
  twice: 'twice double doubled two duplicate duplicated second',
  refund: 'refund refunded reimburse reimbursed repay repaid money back credit',
  parcel: 'parcel package delivery shipment order',
  late: 'late delayed delay overdue missing arrived arrive yet',
  cancel: 'cancel cancelled canceled terminate end stop quit unsubscribe',
  plan: 'plan subscription contract membership',
  invoice: 'invoice bill receipt statement',
  call: 'call phone ring callback',
  address: 'address location office',
})) {
  for (const w of words.split(' ')) CONCEPTS[w] = concept;
}

function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

export function embedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const raw of text.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []) {
    if (STOP.has(raw)) continue;
    const term = CONCEPTS[raw] ?? CONCEPTS[stem(raw)] ?? stem(raw);
    const h = sha256(`embed:${term}`);
    // Two dimensions a term, each with a sign: few collisions, no bias.
    for (let k = 0; k < 2; k++) {
      const dim = (h[k * 2] ?? 0) % EMBEDDING_DIMENSIONS;
      v[dim] = (v[dim] ?? 0) + ((h[k * 2 + 1] ?? 0) & 1 ? 1 : -1);
    }
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  // An input of only common words still gets a vector (its own hash), never all zeros.
  if (norm === 0) {
    const h = sha256(`embed-empty:${text}`);
    return v.map((_, i) => ((h[i % 32] ?? 0) / 127.5 - 1) / Math.sqrt(EMBEDDING_DIMENSIONS));
  }
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}
