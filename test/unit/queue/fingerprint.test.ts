import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/main/engine/queue/fingerprint';
import { mulberry32 } from '../../../src/shared/prng';

// Fingerprints are stored (job_fingerprints), so the value must never change: the first 8 bytes
// of the delivery's SHA-256 as a signed little-endian 64-bit integer.
const reference = (s: string): bigint => createHash('sha256').update(s).digest().readBigInt64LE(0);

describe('fingerprintOf', () => {
  it('is the first 8 bytes of SHA-256, signed little-endian, for every kind of text', () => {
    const rand = mulberry32(7);
    const samples = ['', 'msg\0whatsapp\0+442079460000\0Hello', 'Grüße, 東京 🚀', '\u0000\uffff'];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      const n = Math.floor(rand() * 40);
      for (let k = 0; k < n; k++) s += String.fromCodePoint(Math.floor(rand() * (rand() < 0.8 ? 0x80 : 0x2ffff)));
      samples.push(s);
    }
    let negative = 0;
    for (const s of samples) {
      const fp = fingerprintOf(s);
      expect(fp).toBe(reference(s));
      if (fp < 0n) negative++;
    }
    // Both signs occur, so the high half's sign is exercised.
    expect(negative).toBeGreaterThan(500);
    expect(samples.length - negative).toBeGreaterThan(500);
  });
});
