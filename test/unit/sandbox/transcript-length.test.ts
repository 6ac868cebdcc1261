// A made-up transcript is about as long as the recording's speech would be (15 characters a second),
// so a pipeline's next step costs in the sandbox what its estimate says (shared/capabilities/catalog:
// "about 15 characters of transcript per audio second").
import { describe, expect, it } from 'vitest';
import { corpusTranscript, TRANSCRIPT_CHARS_PER_SECOND } from '../../../src/sandbox/results';
import { describe as describeCapability } from '../../../src/shared/capabilities/catalog';

const sha = (n: number): string => n.toString(16).padStart(64, '0');

describe('corpusTranscript', () => {
  it('is about as long as the speech of its seconds, within one sentence', () => {
    for (const seconds of [10, 42.5, 300, 3600]) {
      for (let n = 0; n < 20; n++) {
        const text = corpusTranscript(sha(n), seconds);
        // The corpus's longest sentence is under 70 characters.
        expect(Math.abs(text.length - seconds * TRANSCRIPT_CHARS_PER_SECOND)).toBeLessThanOrEqual(70);
      }
    }
  });

  it('has one sentence at least, and the same text for the same file', () => {
    expect(corpusTranscript(sha(1), 0).length).toBeGreaterThan(10);
    expect(corpusTranscript(sha(7), 60)).toBe(corpusTranscript(sha(7), 60));
    expect(corpusTranscript(sha(7), 60)).not.toBe(corpusTranscript(sha(8), 60));
  });

  it('matches what the estimate of a step after transcription assumes', () => {
    expect(describeCapability('transcribe').yields?.perUnit({})).toBe(TRANSCRIPT_CHARS_PER_SECOND);
  });
});
