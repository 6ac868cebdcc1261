// Issue 7, points 9 and 10: a damaged or truncated input is that input's problem (file, cause,
// what to do); it never fails the whole import and is never accepted and billed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import { wavDurationSeconds } from '../../../src/shared/media';
import { MEDIA_FIXTURES, pdf, png, put, tempDirs, wav, wavWithoutData } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe('truncated WAVs (point 9)', () => {
  it("the shared WAV header reader (also the sandbox's) reads no field past the bytes it is given", () => {
    const whole = wav(1, 3);
    // Every cut inside the header (fmt at 12..36, LIST after it): unknown, never a RangeError.
    for (let n = 0; n <= 44; n++) expect(wavDurationSeconds(whole.subarray(0, n), n), `cut at ${n}`).toBeNull();
    expect(wavDurationSeconds(whole, whole.length)).toBeCloseTo(1, 6);
  });

  it('a 30-byte WAV and WAVs cut inside their header are problems of their own; the valid files still import', async () => {
    const dir = await tmp.make();
    const whole = wav(2, 1);
    const good = await put(join(dir, 'good.wav'), whole);
    // 30 bytes: the fmt chunk header is complete but its byte rate (bytes 28..31) is cut.
    const cut30 = await put(join(dir, 'cut-30.wav'), whole.subarray(0, 30));
    const cut20 = await put(join(dir, 'cut-20.wav'), whole.subarray(0, 20));
    const cut44 = await put(join(dir, 'cut-44.wav'), whole.subarray(0, 44));
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([good]);
    const byPath = Object.fromEntries(problems.map((p) => [p.source, p.message]));
    expect(Object.keys(byPath).sort()).toEqual([cut20, cut30, cut44].sort());
    for (const path of [cut20, cut30, cut44]) {
      const message = byPath[path] ?? '';
      expect(message.startsWith(`${path} `), message).toBe(true);
      expect(message).toMatch(/is not a readable WAV recording/);
      expect(message).toMatch(/cut short|no audio data|format chunk/);
      expect(message).toMatch(/record or export it again|copy it again|leave it out/i);
      expect(message).not.toMatch(/DataView|RangeError/);
    }
  });
});

describe('clearly broken files are skipped with the reason (point 10)', () => {
  it('documents: 3-byte JPEG, PNG signature only, PNG cut at 40 bytes, "%PDF-" only, 26-byte PDF', async () => {
    const dir = await tmp.make();
    const goodPng = png(4, 3);
    const goodPdf = pdf(2);
    const files = {
      jpeg3: await put(join(dir, 'three-bytes.jpg'), Buffer.from([0xff, 0xd8, 0xff])),
      pngSig: await put(join(dir, 'signature-only.png'), goodPng.subarray(0, 8)),
      png40: await put(join(dir, 'cut-at-40.png'), goodPng.subarray(0, 40)),
      pdfHeader: await put(join(dir, 'header-only.pdf'), '%PDF-'),
      pdf26: await put(join(dir, 'cut-at-26.pdf'), goodPdf.subarray(0, 26)),
    };
    const okPng = await put(join(dir, 'ok.png'), goodPng);
    const okPdf = await put(join(dir, 'ok.pdf'), goodPdf);
    const { items, problems } = await importFiles([dir], 'ocr');
    expect(items.map((i) => [i.path, i.units])).toEqual([
      [okPdf, 2],
      [okPng, 1],
    ]);
    const byPath = Object.fromEntries(problems.map((p) => [p.source, p.message]));
    expect(Object.keys(byPath).sort()).toEqual(Object.values(files).sort());
    expect(byPath[files.jpeg3]).toMatch(/three-bytes\.jpg is not a readable JPEG image: .*(cut short|no frame header)/);
    expect(byPath[files.pngSig]).toMatch(/signature-only\.png is not a readable PNG image: .*image header \(IHDR\)/);
    expect(byPath[files.png40]).toMatch(/cut-at-40\.png is not a readable PNG image: .*cut short/);
    expect(byPath[files.pdfHeader]).toMatch(/header-only\.pdf is not a readable PDF/);
    expect(byPath[files.pdf26]).toMatch(/cut-at-26\.pdf is not a readable PDF/);
    for (const message of Object.values(byPath)) {
      expect(message).toMatch(/(save|scan|export|copy) it again.*or leave it out/i);
    }
  });

  it('recordings: a WAV without a data chunk, a 3-byte "MP3", a cut Ogg and a header-only FLAC are skipped; the error text of a parser never leaks alone', async () => {
    const dir = await tmp.make();
    const noData = await put(join(dir, 'no-data.wav'), wavWithoutData());
    const id3 = await put(join(dir, 'id3-only.mp3'), 'ID3');
    const ogg = await readFile(join(MEDIA_FIXTURES, 'tone.ogg'));
    const cutOgg = await put(join(dir, 'cut.ogg'), ogg.subarray(0, 500));
    // Its STREAMINFO header announces 2.5 s, but the audio frames after it are gone.
    const flac = await readFile(join(MEDIA_FIXTURES, 'tone.flac'));
    const headerOnlyFlac = await put(join(dir, 'header-only.flac'), flac.subarray(0, 100));
    const good = await put(join(dir, 'good.wav'), wav(1, 2));
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(items.map((i) => i.path)).toEqual([good]);
    const byPath = Object.fromEntries(problems.map((p) => [p.source, p.message]));
    expect(Object.keys(byPath).sort()).toEqual([cutOgg, headerOnlyFlac, id3, noData].sort());
    expect(byPath[noData]).toMatch(/no-data\.wav is not a readable WAV recording: it has no audio data \(no "data" chunk\)/);
    expect(byPath[id3]).toMatch(/id3-only\.mp3 is not a readable mp3 recording/);
    expect(byPath[cutOgg]).toMatch(/cut\.ogg is not a readable ogg recording/);
    expect(byPath[headerOnlyFlac]).toMatch(/header-only\.flac is not a readable flac recording: it is cut short/);
    for (const message of Object.values(byPath)) expect(message).toMatch(/(record|export|copy) it again.*or leave it out/i);
  });
});
