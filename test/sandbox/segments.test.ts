// The sandbox's timed transcripts (A7): a sample recording's script comes back as one segment per
// line with its speaker, taking a share of the real audio duration proportional to its length;
// text without a script as one segment per sentence, no speaker. Same audio, same segments.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wavDurationSeconds } from '../../src/shared/media';
import { transcriptSegments } from '../../src/sandbox/results';
import { multipart, sandbox, smallWav, upload } from './helpers';

const RECORDINGS = join(process.cwd(), 'resources', 'samples', 'recordings');
const SAMPLES = readdirSync(RECORDINGS)
  .filter((f) => f.endsWith('.wav'))
  .sort();

interface Segment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}
interface Answer {
  text: string;
  duration_seconds: number;
  segments: Segment[];
  sandbox?: boolean;
}

async function transcribe(sb: Awaited<ReturnType<typeof sandbox>>['sb'], name: string, data: Buffer): Promise<Answer> {
  const res = await upload(sb, '/v1/transcribe', multipart('seg', {}, { name, data }), 'seg');
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

/** Times in order, whole milliseconds, within the duration, the last ending at it. */
function expectTimeline(segments: readonly Segment[], duration: number): void {
  expect(segments.length).toBeGreaterThan(0);
  expect(segments[0]?.start).toBe(0);
  segments.forEach((s, i) => {
    expect(s.start, `segment ${i}`).toBeLessThan(s.end);
    expect(s.end, `segment ${i}`).toBeLessThanOrEqual(duration);
    expect(Math.round(s.start * 1000) / 1000).toBe(s.start);
    expect(Math.round(s.end * 1000) / 1000).toBe(s.end);
    if (i > 0) expect(s.start, `segment ${i}`).toBeGreaterThanOrEqual(segments[i - 1]?.end ?? 0);
  });
  expect(duration - (segments[segments.length - 1]?.end ?? 0)).toBeLessThan(0.001);
}

describe('sandbox transcript segments', () => {
  it.each(SAMPLES)('%s: one segment per script line, speakers alternating, spread over the audio', async (name) => {
    const { sb } = await sandbox();
    const wav = readFileSync(join(RECORDINGS, name));
    const duration = wavDurationSeconds(wav, wav.length) ?? 0;
    expect(duration).toBeGreaterThan(1);
    const a = await transcribe(sb, name, wav);
    // The recording's own script: not made up (A21).
    expect(a.sandbox).toBeUndefined();
    expect(a.duration_seconds).toBe(duration);
    // The script is "Agent: ..." / "Customer: ..." lines: one segment each, the prefix as its speaker.
    const lines = a.text.split('\n');
    expect(a.segments.map((s) => `${s.speaker ?? '?'}: ${s.text}`)).toEqual(lines);
    for (const [i, s] of a.segments.entries()) {
      expect(['Agent', 'Customer']).toContain(s.speaker);
      if (i > 0) expect(s.speaker, `segment ${i} alternates`).not.toBe(a.segments[i - 1]?.speaker);
    }
    expectTimeline(a.segments, duration);
    // Each takes the share of the duration its text takes of the characters (within a millisecond).
    const total = a.segments.reduce((n, s) => n + [...s.text].length, 0);
    for (const s of a.segments) expect(Math.abs(s.end - s.start - (duration * [...s.text].length) / total)).toBeLessThan(0.002);
    // Deterministic: the same recording, under another name and key, gives the same segments.
    const again = await transcribe(sb, `copy-${name}`, wav);
    expect(again.segments).toEqual(a.segments);
  });

  it('text without a script: a segment per sentence of the corpus transcript, no speaker', async () => {
    const { sb } = await sandbox();
    const wav = smallWav(7.25, null, 3);
    const a = await transcribe(sb, 'plain.wav', wav);
    expect(a.sandbox).toBe(true);
    expect(a.duration_seconds).toBe(7.25);
    expect(a.segments.length).toBeGreaterThanOrEqual(3);
    expect(a.segments.every((s) => s.speaker === undefined)).toBe(true);
    expect(a.segments.map((s) => s.text).join(' ')).toBe(a.text);
    expect(a.segments.every((s) => /[.?!]$/.test(s.text))).toBe(true);
    expectTimeline(a.segments, 7.25);
    expect((await transcribe(sb, 'plain-again.wav', wav)).segments).toEqual(a.segments);
  });

  it('splits as documented, whatever the duration or text', () => {
    expect(transcriptSegments('Agent: Hi.\nCustomer: Hello there.', 2)).toEqual([
      { start: 0, end: 0.4, text: 'Hi.', speaker: 'Agent' }, // 3 of 15 characters
      { start: 0.4, end: 2, text: 'Hello there.', speaker: 'Customer' },
    ]);
    // A line without a speaker makes it plain text: sentences, the labels kept in the text.
    expect(transcriptSegments('Agent: Hi.\nThen silence.', 1).map((s) => [s.text, s.speaker])).toEqual([
      ['Agent: Hi.', undefined],
      ['Then silence.', undefined],
    ]);
    expect(transcriptSegments('', 3)).toEqual([]);
    expect(transcriptSegments('One sentence without a stop', 0)).toEqual([{ start: 0, end: 0, text: 'One sentence without a stop' }]);
  });
});
