// Small files are read whole by a worker thread (read-whole.ts) and checked from memory; big ones
// are streamed. Whichever way a file goes (and whether the thread works at all), the items and
// problems must be the same, in the same order, with the same hashes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import {
  BATCH_FILES,
  MAX_WHOLE_FILE_BYTES,
  READ_WORKER_SOURCE,
  readBatches,
  startWholeFileReader,
  type ReadBatch,
  type WholeFileReader,
} from '../../../src/main/engine/importers/read-whole';
import { MEDIA_FIXTURES, pdf, png, put, tempDirs, tiff, wav, wavWithoutData } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A folder with every way through: small and big files, copies of each, a refused and a broken file. */
async function mixedFolder(): Promise<string> {
  const dir = await tmp.make();
  const small = wav(1, 1);
  const big = wav(80, 2); // 1.28 MB: streamed, not read whole
  expect(big.length).toBeGreaterThan(MAX_WHOLE_FILE_BYTES);
  await put(join(dir, 'a-small.wav'), small);
  await put(join(dir, 'b-big.wav'), big);
  await put(join(dir, 'c-copy-of-big.wav'), big);
  await put(join(dir, 'd-copy-of-small.wav'), small);
  await put(join(dir, 'e-no-data.wav'), wavWithoutData());
  await put(join(dir, 'f-notes.txt'), 'not a recording');
  await put(join(dir, 'g-empty.wav'), '');
  await put(join(dir, 'sub', 'h.wav'), wav(2, 3));
  // Compressed audio: read whole, but its check waits (music-metadata), so it takes the async pass.
  await copyFile(join(MEDIA_FIXTURES, 'tone-cbr-no-header.mp3'), join(dir, 'i-call.mp3'));
  return dir;
}

/** The first batch of `paths` (one request) from the reader thread. */
async function firstBatch(reader: WholeFileReader, paths: readonly string[]): Promise<ReadBatch> {
  const batches = readBatches(
    reader,
    (async function* () {
      yield paths;
    })(),
  );
  try {
    const r = await batches.next();
    if (r.done === true) throw new Error('no batch');
    return r.value;
  } finally {
    await batches.return(undefined);
  }
}

describe('reading small files whole in a worker thread', () => {
  it('the reader thread reads small files whole with their hash, and leaves the rest to streaming', async () => {
    const dir = await mixedFolder();
    const paths = ['a-small.wav', 'b-big.wav', 'g-empty.wav', 'missing.wav', 'sub'].map((n) => join(dir, n));
    const reader = startWholeFileReader();
    expect(reader).not.toBeNull();
    try {
      const batch = await firstBatch(reader!, paths);
      expect(batch.count).toBe(5);
      expect(batch.path(0)).toBe(paths[0]);
      const [small, ...rest] = Array.from({ length: batch.count }, (_, i) => batch.whole(i));
      expect(rest).toEqual([null, null, null, null]);
      expect(small?.size).toBe(wav(1, 1).length);
      expect(small?.data.equals(wav(1, 1))).toBe(true);
      expect(small?.sha256).toBe(sha(wav(1, 1)));
      // A second stream on the same thread, from the second path on.
      const next = await firstBatch(reader!, paths.slice(1));
      expect([next.path(0), next.count]).toEqual([paths[1], 4]);
      expect([0, 1, 2, 3].map((i) => next.whole(i))).toEqual([null, null, null, null]);
    } finally {
      reader?.close();
    }
  });

  it.skipIf(process.platform === 'win32')('a pipe where a file was listed does not hang the reader thread', async () => {
    const dir = await tmp.make();
    const fifo = join(dir, 'was-a-file.wav');
    execFileSync('mkfifo', [fifo]);
    const reader = startWholeFileReader();
    try {
      const batch = await firstBatch(reader!, [fifo, await put(join(dir, 'b.wav'), wav(1, 1))]);
      expect(batch.whole(0)).toBeNull();
      expect(batch.whole(1)?.sha256).toBe(sha(wav(1, 1)));
    } finally {
      reader?.close();
    }
  });

  it('gives the same items, hashes and problems as streaming every file', async () => {
    const dir = await mixedFolder();
    const threaded = await importFiles([dir], 'transcribe');
    const streamed = await importFiles([dir], 'transcribe', { reader: () => null });
    expect(threaded).toEqual(streamed);
    expect(threaded.items.map((i) => i.path.slice(dir.length + 1))).toEqual(['a-small.wav', 'b-big.wav', 'i-call.mp3', 'sub/h.wav']);
    expect(threaded.items[2]).toMatchObject({ mime: 'audio/mpeg', units: 3, unitsExact: false });
    expect(threaded.items[1]?.sha256).toBe(sha(wav(80, 2)));
    expect(threaded.items[0]?.sha256).toBe(sha(wav(1, 1)));
    expect(threaded.problems.map((p) => p.source.slice(dir.length + 1))).toEqual([
      'c-copy-of-big.wav',
      'd-copy-of-small.wav',
      'e-no-data.wav',
      'f-notes.txt',
      'g-empty.wav',
    ]);
    expect(threaded.problems[0]?.message).toMatch(/c-copy-of-big\.wav is a duplicate of .*b-big\.wav/);
    expect(threaded.problems[1]?.message).toMatch(/d-copy-of-small\.wav is a duplicate of .*a-small\.wav/);
  });

  it('documents read whole are checked by the same positioned reads (PDF, TIFF) as when streamed', async () => {
    const dir = await tmp.make();
    await put(join(dir, 'two.pdf'), pdf(2));
    await put(join(dir, 'scan.png'), png(3, 2));
    await put(
      join(dir, 'fax.tiff'),
      tiff([
        { width: 4, height: 4 },
        { width: 4, height: 4 },
        { width: 2, height: 2, thumbnail: true },
      ]),
    );
    await copyFile(join(MEDIA_FIXTURES, 'page.jpg'), join(dir, 'photo.jpg'));
    await put(join(dir, 'cut.pdf'), pdf(3).subarray(0, 200));
    const threaded = await importFiles([dir], 'ocr');
    expect(threaded).toEqual(await importFiles([dir], 'ocr', { reader: () => null }));
    expect(threaded.items.map((i) => [i.path.slice(dir.length + 1), i.units])).toEqual([
      ['fax.tiff', 2],
      ['photo.jpg', 1],
      ['scan.png', 1],
      ['two.pdf', 2],
    ]);
    expect(threaded.problems.map((p) => p.source)).toEqual([join(dir, 'cut.pdf')]);
  });

  it('splits a batch whose files are too many bytes together, and keeps their order', async () => {
    const dir = await tmp.make();
    // 24 files of about 960 KB: three batches' worth of bytes.
    for (let i = 0; i < 24; i++) await put(join(dir, `f${String(i).padStart(2, '0')}.wav`), wav(60, i + 1));
    const { items, problems } = await importFiles([dir], 'transcribe');
    expect(problems).toEqual([]);
    expect(items.map((i) => i.path.slice(dir.length + 1))).toEqual((await readdir(dir)).sort());
    expect(items.map((i) => i.sha256)).toEqual(Array.from({ length: 24 }, (_, i) => sha(wav(60, i + 1))));
  });

  it('a file that disappears between the walk and the read is named as a problem', async () => {
    const dir = await tmp.make();
    await put(join(dir, 'a.wav'), wav(1, 1));
    const gone = await put(join(dir, 'b.wav'), wav(1, 2));
    await put(join(dir, 'c.wav'), wav(1, 3));
    // Progress 0 comes after the walk has listed the files and before any is read.
    const { items, problems } = await importFiles([dir], 'transcribe', {
      onProgress: (done) => {
        if (done === 0) unlinkSync(gone);
      },
    });
    expect(items.map((i) => i.path)).not.toContain(gone);
    expect(items).toHaveLength(2);
    expect(problems).toMatchObject([
      { source: gone, row: null, message: expect.stringMatching(/b\.wav does not exist \(it may have been moved, renamed or deleted\)/) },
    ]);
  });

  it('when the reader thread cannot start, every file is measured in this thread with the same result', async () => {
    const dir = await mixedFolder();
    const broken = await importFiles([dir], 'transcribe', { reader: () => startWholeFileReader('throw new Error("no reader here")') });
    expect(broken).toEqual(await importFiles([dir], 'transcribe'));
  });

  it('when the reader thread dies part way, the files left are measured in this thread', async () => {
    const dir = await tmp.make();
    const n = BATCH_FILES + 40;
    for (let i = 0; i < n; i++) await put(join(dir, `f${String(i).padStart(4, '0')}.wav`), wav(0.01, i + 1));
    // The real reader, which stops at its second request (the first batch was read by it).
    const dies = `let asked = 0;
      require('node:worker_threads').parentPort.on('message', () => { if (++asked === 2) process.exit(3); });
      ${READ_WORKER_SOURCE}`;
    const result = await importFiles([dir], 'transcribe', { reader: () => startWholeFileReader(dies) });
    expect(result.problems).toEqual([]);
    expect(result.items).toHaveLength(n);
    expect(result).toEqual(await importFiles([dir], 'transcribe', { reader: () => null }));
  });

  it('when the reader thread dies after its first batch of a request, the files left are measured in this thread', async () => {
    const dir = await tmp.make();
    const n = BATCH_FILES + 40;
    for (let i = 0; i < n; i++) await put(join(dir, `f${String(i).padStart(4, '0')}.wav`), wav(0.01, i + 1));
    // The real reader, which stops once it has sent its first batch (the request held them all).
    const dies = `{
        const port = require('node:worker_threads').parentPort;
        const post = port.postMessage.bind(port);
        port.postMessage = (...args) => { post(...args); process.exit(3); };
      }
      ${READ_WORKER_SOURCE}`;
    const result = await importFiles([dir], 'transcribe', { reader: () => startWholeFileReader(dies) });
    expect(result.problems).toEqual([]);
    expect(result.items).toHaveLength(n);
    expect(result).toEqual(await importFiles([dir], 'transcribe', { reader: () => null }));
  });
});
