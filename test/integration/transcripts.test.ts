// Transcripts as people use them, end to end: the three sample recordings transcribed against the
// sandbox keep their timed segments (with speakers) in the result, and export as SubRip and WebVTT
// files, one per recording, that a strict reader parses back to exactly those times, speakers and
// texts; `files` writes .txt, .srt, .vtt and .json under one name per recording, and the browser's
// zip holds the same. A result without segments is one cue over the whole recording.
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZip } from '../helpers/zip';
import { createAndRun, RECORDINGS, startHarness, type Harness } from './harness';
import { TranscribeResult, type TranscriptSegment } from '../../src/shared/capabilities/catalog';
import { UserError } from '../../src/main/engine/failures';
import { wavDurationSeconds } from '../../src/shared/media';

const SAMPLES = ['call-001-double-charge', 'call-002-late-parcel', 'call-003-cancel-plan'];

interface Parsed {
  start: number;
  end: number;
  speaker: string | null;
  text: string;
}
/** `raw`: the cue's text as written, its speaker prefix or voice span left in (VTT unescaped). */
type Read = Parsed & { raw: string };

const TIME = String.raw`(\d{2,}):([0-5]\d):([0-5]\d)`;
const seconds = (m: RegExpExecArray, at: number): number => Number(m[at]) * 3600 + Number(m[at + 1]) * 60 + Number(m[at + 2]) + Number(m[at + 3]) / 1000;

/** A strict SubRip reader: numbered cues from 1, a timing line with commas, text lines, one blank line between. */
function parseSrt(file: string): Read[] {
  expect(file.endsWith('\n') && !file.endsWith('\n\n'), 'ends with one newline').toBe(true);
  expect(file).not.toContain('\r');
  const timing = new RegExp(`^${TIME},(\\d{3}) --> ${TIME},(\\d{3})$`);
  return file
    .slice(0, -1)
    .split('\n\n')
    .map((block, i) => {
      const [num, time, ...lines] = block.split('\n');
      expect(num, `cue ${i + 1} number`).toBe(String(i + 1));
      const m = timing.exec(time ?? '');
      if (!m) throw new Error(`cue ${i + 1}: not an SRT timing line: ${time}`);
      expect(lines.length, `cue ${i + 1} text`).toBeGreaterThan(0);
      for (const l of lines) {
        expect(l.trim(), `cue ${i + 1}: no blank line inside`).not.toBe('');
        expect(l).not.toContain('-->');
      }
      const text = lines.join('\n');
      const sp = /^(Agent|Customer): (.*)$/s.exec(text);
      return { start: seconds(m, 1), end: seconds(m, 5), speaker: sp?.[1] ?? null, text: sp?.[2] ?? text, raw: text };
    });
}

/** A strict WebVTT reader: the header, then cues of a timing line with dots and text, voices as <v Name>...</v>. */
function parseVtt(file: string): Read[] {
  expect(file.startsWith('WEBVTT\n\n')).toBe(true);
  expect(file.endsWith('\n') && !file.endsWith('\n\n')).toBe(true);
  const timing = new RegExp(`^${TIME}\\.(\\d{3}) --> ${TIME}\\.(\\d{3})$`);
  const cues = file.slice('WEBVTT\n\n'.length, -1).split('\n\n');
  let last = 0;
  return cues.map((block, i) => {
    const [time, ...lines] = block.split('\n');
    const m = timing.exec(time ?? '');
    if (!m) throw new Error(`cue ${i + 1}: not a WebVTT timing line: ${time}`);
    const start = seconds(m, 1);
    const end = seconds(m, 5);
    expect(end, `cue ${i + 1} ends after it starts`).toBeGreaterThan(start);
    expect(start, `cue ${i + 1} in order`).toBeGreaterThanOrEqual(last);
    last = start;
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(l.trim()).not.toBe('');
      expect(l).not.toContain('-->');
    }
    const text = lines.join('\n');
    const v = /^<v ([^>]+)>(.*)<\/v>$/s.exec(text);
    const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect((v?.[2] ?? text).replace(/&(amp|lt|gt);/g, ''), 'no bare & or <').not.toMatch(/[&<]/);
    return { start, end, speaker: v ? unescape(v[1] ?? '') : null, text: unescape(v?.[2] ?? text), raw: unescape(text) };
  });
}

/** What the cue files must say for these segments: times to the millisecond. */
function expected(segments: readonly TranscriptSegment[]): Parsed[] {
  const ms = (s: number): number => Math.round(s * 1000) / 1000;
  return segments.map((s) => ({ start: ms(s.start), end: ms(s.end), speaker: s.speaker ?? null, text: s.text }));
}

/** The cues read, times to the millisecond (as floating point sums them). */
function near(parsed: Read[]): Parsed[] {
  return parsed.map((p) => ({ start: Math.round(p.start * 1000) / 1000, end: Math.round(p.end * 1000) / 1000, speaker: p.speaker, text: p.text }));
}

async function transcribeSamples(h: Harness) {
  const r = await createAndRun(h, { capability: 'transcribe', paths: SAMPLES.map((s) => join(RECORDINGS, `${s}.wav`)) });
  expect(r.jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  const results = new Map(
    r.jobs.map((j) => {
      const base = SAMPLES.find((s) => j.source.includes(s)) ?? '';
      return [base, TranscribeResult.parse(JSON.parse(j.result_json ?? 'null'))] as const;
    }),
  );
  return { ...r, results };
}

describe('timed transcripts', () => {
  it('keep their segments, with speakers alternating over the recording, in the stored result', async () => {
    const h = await startHarness();
    const { results } = await transcribeSamples(h);
    for (const name of SAMPLES) {
      const r = results.get(name);
      const wav = readFileSync(join(RECORDINGS, `${name}.wav`));
      const duration = wavDurationSeconds(wav, wav.length) ?? 0;
      const segments = r?.segments ?? [];
      expect(segments.length, name).toBeGreaterThanOrEqual(2);
      expect(segments.map((s) => `${s.speaker ?? ''}: ${s.text}`).join('\n')).toBe(r?.text);
      expect(new Set(segments.map((s) => s.speaker))).toEqual(new Set(['Agent', 'Customer']));
      expect(segments[segments.length - 1]?.end).toBeCloseTo(duration, 2);
      expect(r?.duration_seconds).toBe(duration);
    }
  });

  it('export as .srt and as .vtt, one per recording, parsing back to the segments; others are refused', async () => {
    const h = await startHarness();
    const { id, results } = await transcribeSamples(h);
    const srtDir = join(h.dir, 'out', 'srt'); // created, parents too
    const srt = await h.engine.exportFiles(id, srtDir, 'srt');
    expect(srt).toMatchObject({ dir: srtDir, written: 3, noFile: 0, problemCount: 0 });
    expect(readdirSync(srtDir).sort()).toEqual(SAMPLES.map((s) => `${s}.srt`));
    const vttDir = join(h.dir, 'out', 'vtt');
    expect(await h.engine.exportFiles(id, vttDir, 'vtt')).toMatchObject({ written: 3, noFile: 0, problemCount: 0 });
    expect(readdirSync(vttDir).sort()).toEqual(SAMPLES.map((s) => `${s}.vtt`));
    for (const name of SAMPLES) {
      const want = expected(results.get(name)?.segments ?? []);
      expect(near(parseSrt(readFileSync(join(srtDir, `${name}.srt`), 'utf8'))), name).toEqual(want);
      expect(near(parseVtt(readFileSync(join(vttDir, `${name}.vtt`), 'utf8'))), name).toEqual(want);
    }
    // A second export into the same folder adds numbered copies; nothing is overwritten.
    writeFileSync(join(srtDir, 'call-002-late-parcel (2).srt'), 'mine');
    expect((await h.engine.exportFiles(id, srtDir, 'srt')).written).toBe(3);
    expect(readdirSync(srtDir).sort()).toEqual([
      'call-001-double-charge (2).srt',
      'call-001-double-charge.srt',
      'call-002-late-parcel (2).srt',
      'call-002-late-parcel (3).srt',
      'call-002-late-parcel.srt',
      'call-003-cancel-plan (2).srt',
      'call-003-cancel-plan.srt',
    ]);
    expect(readFileSync(join(srtDir, 'call-002-late-parcel (2).srt'), 'utf8')).toBe('mine');

    // Only transcripts are timed: another batch is refused, naming what to use, before any folder is made.
    const txt = join(h.dir, 'tickets.txt');
    writeFileSync(txt, 'My refund has not arrived yet.\n');
    const text = await createAndRun(h, { capability: 'text', paths: [txt], task: 'summary' });
    const refused = h.engine.exportFiles(text.id, join(h.dir, 'never'), 'vtt');
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(
      /--format vtt writes subtitles of timed transcripts, which only transcribe batches have; this is a text batch, whose results are not timed.*--format files/,
    );
    expect(readdirSync(h.dir)).not.toContain('never');
  });

  it('files: .txt, .srt, .vtt and .json per recording under one name, the zip the same; no segments: one cue over the recording', async () => {
    const h = await startHarness();
    const { id, jobs, results } = await transcribeSamples(h);
    // As an API that answers the text alone would leave it: the second result without segments.
    const plain = jobs[1];
    h.engine.db.prepare(`UPDATE jobs SET result_json = json_remove(result_json, '$.segments') WHERE id = ?`).run(plain?.id);
    const dir = join(h.dir, 'files');
    mkdirSync(dir);
    writeFileSync(join(dir, 'call-003-cancel-plan.vtt'), 'mine'); // one of an item's names taken: all four move on
    const x = await h.engine.exportFiles(id, dir);
    expect(x).toMatchObject({ written: 12, noFile: 0, problemCount: 0 });
    const four = (base: string) => ['json', 'srt', 'txt', 'vtt'].map((e) => `${base}.${e}`);
    expect(readdirSync(dir).sort()).toEqual(
      [...four('call-001-double-charge'), ...four('call-002-late-parcel'), ...four('call-003-cancel-plan (2)'), 'call-003-cancel-plan.vtt'].sort(),
    );
    expect(readFileSync(join(dir, 'call-003-cancel-plan.vtt'), 'utf8')).toBe('mine');
    const first = results.get('call-001-double-charge');
    expect(readFileSync(join(dir, 'call-001-double-charge.txt'), 'utf8')).toBe(first?.text);
    expect(JSON.parse(readFileSync(join(dir, 'call-001-double-charge.json'), 'utf8'))).toEqual(first);
    expect(near(parseSrt(readFileSync(join(dir, 'call-003-cancel-plan (2).srt'), 'utf8')))).toEqual(
      expected(results.get('call-003-cancel-plan')?.segments ?? []),
    );

    // Without segments: one cue from 0 to the reported duration, holding the whole text (its lines), no voice.
    const second = results.get('call-002-late-parcel');
    const whole = [{ start: 0, end: Math.round((second?.duration_seconds ?? 0) * 1000) / 1000, raw: second?.text ?? '' }];
    const rawOf = (cues: Read[]) => cues.map((c) => ({ start: Math.round(c.start * 1000) / 1000, end: Math.round(c.end * 1000) / 1000, raw: c.raw }));
    expect(second?.text).toContain('\n');
    expect(rawOf(parseSrt(readFileSync(join(dir, 'call-002-late-parcel.srt'), 'utf8')))).toEqual(whole);
    expect(rawOf(parseVtt(readFileSync(join(dir, 'call-002-late-parcel.vtt'), 'utf8')))).toEqual(whole);
    expect(JSON.parse(readFileSync(join(dir, 'call-002-late-parcel.json'), 'utf8'))).not.toHaveProperty('segments');

    // The browser host's zip: the same files under the same names (none taken there, so no number).
    const zipPath = join(h.dir, 'files.zip');
    const out = createWriteStream(zipPath);
    const zr = await h.engine.exportFilesZip(id, out);
    if (!out.closed) await once(out, 'close');
    expect(zr).toMatchObject({ entries: 12, noFile: 0, problemCount: 0 });
    const entries = await readZip(zipPath);
    expect([...entries.keys()]).toEqual(SAMPLES.flatMap((s) => ['txt', 'srt', 'vtt', 'json'].map((e) => `${s}.${e}`)));
    for (const [name, bytes] of entries) {
      const onDisk = name.startsWith('call-003') ? name.replace('call-003-cancel-plan', 'call-003-cancel-plan (2)') : name;
      expect(bytes.toString('utf8'), name).toBe(readFileSync(join(dir, onDisk), 'utf8'));
    }
  });
});
