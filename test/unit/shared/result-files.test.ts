// The words export's refusals use for a batch's kind: the article agrees with the capability's
// name, and its short name is added only when it says something the name does not.
import { describe, expect, it } from 'vitest';
import { kindOfBatch, noCuesMessage, noInvoicesMessage } from '../../../src/shared/capabilities/result-files';

describe('kindOfBatch', () => {
  it('says "an ocr batch", "a transcribe batch (transcription)", "a text batch"', () => {
    expect(kindOfBatch('ocr')).toBe('an ocr batch');
    expect(kindOfBatch('embeddings')).toBe('an embeddings batch');
    expect(kindOfBatch('image')).toBe('an image batch (images)');
    expect(kindOfBatch('transcribe')).toBe('a transcribe batch (transcription)');
    expect(kindOfBatch('text')).toBe('a text batch');
    expect(kindOfBatch('channel')).toBe('a channel batch (messages)');
    expect(noCuesMessage('ocr', 'b1', 'srt')).toContain('this is an ocr batch, whose results are not timed.');
    expect(noInvoicesMessage('tts', 'b1')).toContain('this is a tts batch (speech). Use');
  });
});
