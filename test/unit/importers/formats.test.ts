// What the importer reads from each format: PDF pages by a real PDF parser, image structure and
// dimensions, TIFF pages from the IFD chain, audio duration from the container.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import { MEDIA_FIXTURES, pdf, png, put, tempDirs, tiff, wav } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

async function importOne(dir: string, name: string, bytes: Buffer | string, capability: 'ocr' | 'transcribe') {
  const path = await put(join(dir, name), bytes);
  const { items, problems } = await importFiles([path], capability);
  return { path, item: items[0], problem: problems[0]?.message };
}

describe('documents', () => {
  it('counts the pages of a PDF whose page objects sit in compressed object streams (exact, not a 1-page guess)', async () => {
    const dir = await tmp.make();
    const path = join(dir, 'objstm.pdf');
    await copyFile(join(MEDIA_FIXTURES, 'object-streams-3-pages.pdf'), path);
    const { items, problems } = await importFiles([path], 'ocr');
    expect(problems).toEqual([]);
    expect(items[0]).toMatchObject({ mime: 'application/pdf', units: 3, unitsExact: true });
  });

  it('refuses a password-protected PDF, a PDF with no pages, and a PDF cut before its page index, saying what to do', async () => {
    const dir = await tmp.make();
    const locked = join(dir, 'locked.pdf');
    await copyFile(join(MEDIA_FIXTURES, 'password-protected.pdf'), locked);
    const empty = await put(
      join(dir, 'no-pages.pdf'),
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    );
    const whole = pdf(3);
    const cut = await put(join(dir, 'cut.pdf'), whole.subarray(0, Math.floor(whole.length / 3)));
    const { items, problems } = await importFiles([dir], 'ocr');
    expect(items).toEqual([]);
    const byPath = Object.fromEntries(problems.map((p) => [p.source, p.message]));
    expect(byPath[locked]).toMatch(/locked\.pdf is protected by a password.*remove the password.*add the copy/i);
    expect(byPath[empty]).toMatch(/no-pages\.pdf is not a readable PDF document: it has no pages/);
    expect(byPath[cut]).toMatch(/cut\.pdf is not a readable PDF document/);
  });

  it('images: real PNG and JPEG are 1 exact page; PNG without image data or end, JPEG without a scan or with 0 width are refused', async () => {
    const dir = await tmp.make();
    const good = png(5, 7);
    const jpeg = await readFile(join(MEDIA_FIXTURES, 'page.jpg'));
    expect((await importOne(dir, 'ok.png', good, 'ocr')).item).toMatchObject({ mime: 'image/png', units: 1, unitsExact: true });
    expect((await importOne(dir, 'ok.jpg', jpeg, 'ocr')).item).toMatchObject({ mime: 'image/jpeg', units: 1, unitsExact: true });

    const iend = good.length - 12;
    const idat = good.indexOf('IDAT') - 4;
    const noIdat = Buffer.concat([good.subarray(0, idat), good.subarray(iend)]);
    expect((await importOne(dir, 'no-idat.png', noIdat, 'ocr')).problem).toMatch(/no-idat\.png is not a readable PNG image: it has no image data \(IDAT\)/);
    expect((await importOne(dir, 'no-iend.png', good.subarray(0, iend), 'ocr')).problem).toMatch(/no-iend\.png is not a readable PNG image: it is cut short/);
    const zeroWidth = Buffer.from(good);
    zeroWidth.writeUInt32BE(0, 16);
    expect((await importOne(dir, 'zero.png', zeroWidth, 'ocr')).problem).toMatch(/zero\.png is not a readable PNG image: its header declares a 0 x 7 image/);

    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    expect((await importOne(dir, 'no-scan.jpg', jpeg.subarray(0, sos), 'ocr')).problem).toMatch(
      /no-scan\.jpg is not a readable JPEG image: it is cut short before its image data/,
    );
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const noWidth = Buffer.from(jpeg);
    noWidth.writeUInt16BE(0, sof + 7);
    expect((await importOne(dir, 'no-width.jpg', noWidth, 'ocr')).problem).toMatch(
      /no-width\.jpg is not a readable JPEG image: its frame header declares a 0 x 32 image/,
    );
  });

  it('TIFF: pages are the full-size images of the IFD chain (thumbnails left out), both byte orders; a broken first IFD is refused', async () => {
    const dir = await tmp.make();
    const three = tiff([
      { width: 8, height: 4 },
      { width: 2, height: 1, thumbnail: true },
      { width: 8, height: 4 },
      { width: 6, height: 3 },
    ]);
    expect((await importOne(dir, 'three.tif', three, 'ocr')).item).toMatchObject({ mime: 'image/tiff', units: 3, unitsExact: true });
    expect((await importOne(dir, 'one-mm.tiff', tiff([{ width: 3, height: 3 }], true), 'ocr')).item).toMatchObject({ units: 1, unitsExact: true });

    const pointsOutside = Buffer.from(three);
    pointsOutside.writeUInt32LE(three.length + 100, 4);
    expect((await importOne(dir, 'outside.tif', pointsOutside, 'ocr')).problem).toMatch(/outside\.tif is not a readable TIFF image: .*cut short/);
    expect((await importOne(dir, 'header.tif', three.subarray(0, 8), 'ocr')).problem).toMatch(/header\.tif is not a readable TIFF image/);
    expect((await importOne(dir, 'zero.tif', tiff([{ width: 0, height: 4 }]), 'ocr')).problem).toMatch(
      /zero\.tif is not a readable TIFF image: its first image is 0 x 4/,
    );
  });
});

describe('recordings', () => {
  it('compressed audio: the duration is read from the file (an estimate the server may correct), not guessed from 128 kbit/s', async () => {
    const dir = await tmp.make();
    const names = ['tone-cbr-no-header.mp3', 'tone-vbr.mp3', 'tone.m4a', 'tone.ogg', 'tone.opus', 'tone.flac', 'tone.webm'];
    for (const n of names) await copyFile(join(MEDIA_FIXTURES, n), join(dir, n));
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(problems).toEqual([]);
    const seconds = Object.fromEntries(items.map((i) => [i.path.slice(dir.length + 1), [i.mime, i.units, i.unitsExact]]));
    // Every fixture is a 2.5 s tone (2.5 to 2.7 s once the encoder's padding is counted).
    expect(seconds).toEqual({
      'tone-cbr-no-header.mp3': ['audio/mpeg', 3, false],
      'tone-vbr.mp3': ['audio/mpeg', 3, false],
      'tone.m4a': ['audio/mp4', 3, false],
      'tone.ogg': ['audio/ogg', 3, false],
      'tone.opus': ['audio/ogg', 3, false],
      'tone.flac': ['audio/flac', 3, false],
      'tone.webm': ['audio/webm', 3, false],
    });
  });

  it('WAV: fmt and data found beyond the first 64 KiB still give the exact duration', async () => {
    const dir = await tmp.make();
    const base = wav(3, 6);
    // A 100 KB JUNK chunk right after the RIFF header pushes fmt and data out of the head.
    const junk = Buffer.alloc(8 + 100_000);
    junk.write('JUNK', 0, 'latin1');
    junk.writeUInt32LE(100_000, 4);
    const bytes = Buffer.concat([base.subarray(0, 12), junk, base.subarray(12)]);
    bytes.writeUInt32LE(bytes.length - 8, 4);
    expect((await importOne(dir, 'junk-first.wav', bytes, 'transcribe')).item).toMatchObject({ units: 3, unitsExact: true });
  });

  it('WAV: a byte rate of 0 is refused; so is a data chunk that claims more than the file holds (cut short, or a 4 GB header)', async () => {
    const dir = await tmp.make();
    const base = wav(4, 7);
    const fmt = base.indexOf('fmt ');
    const zeroRate = Buffer.from(base);
    zeroRate.writeUInt32LE(0, fmt + 16);
    expect((await importOne(dir, 'zero-rate.wav', zeroRate, 'transcribe')).problem).toMatch(
      /zero-rate\.wav is not a readable WAV recording: its format chunk declares 0 bytes per second/,
    );
    const cut = base.subarray(0, base.length - 2 * 16_000); // 2 of its 4 seconds
    expect((await importOne(dir, 'cut-data.wav', cut, 'transcribe')).problem).toMatch(
      /cut-data\.wav is not a readable WAV recording: its header says it holds 63 KB of audio \(4 s\), but the file has only 31 KB after the header, so it is cut short or its header is wrong\. Record, export or copy it again/,
    );
    const data = base.indexOf('data');
    const claims4Gb = Buffer.from(base);
    claims4Gb.writeUInt32LE(0xfffffff0, data + 4);
    claims4Gb.writeUInt32LE(0xfffffff8, 4); // the RIFF size too, as such a header says
    expect((await importOne(dir, 'claims-4gb.wav', claims4Gb, 'transcribe')).problem).toMatch(
      /claims-4gb\.wav is not a readable WAV recording: its header says it holds 4\.0 GB of audio \(74 h 33 min\), but the file has only 63 KB after the header/,
    );
    // A streaming writer's placeholders still mean "to the end of the file".
    for (const placeholder of [0, 0xffffffff]) {
      const streamed = Buffer.from(base);
      streamed.writeUInt32LE(placeholder, data + 4);
      expect((await importOne(dir, `streamed-${placeholder}.wav`, streamed, 'transcribe')).item).toMatchObject({ units: 4, unitsExact: true });
    }
  });
});
