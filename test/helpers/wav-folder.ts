// A folder of many small valid WAV files, each different (a recorder's output): for the folder
// import's tests and its bench (scripts/bench/folder.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files per sub-folder, as a scanner or recorder splits its output. */
const FILES_PER_FOLDER = 1000;

/** A mono PCM WAV at 8 kHz of `dataBytes` of samples (filled with `fill`) whose first bytes carry `mark`. */
function pcmWav(dataBytes: number, bitsPerSample: 8 | 16, fill: number, mark: number): Buffer {
  const bytesPerSample = bitsPerSample / 8;
  const b = Buffer.alloc(44 + dataBytes, fill);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(b.length - 8, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000 * bytesPerSample, 28);
  b.writeUInt16LE(bytesPerSample, 32);
  b.writeUInt16LE(bitsPerSample, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(dataBytes, 40);
  b.writeUInt32LE(mark, 44);
  return b;
}

/** A PCM WAV (8 kHz, 16-bit mono, 40 samples: 124 bytes) whose samples carry `i`, so every file differs. */
export function tinyWav(i: number): Buffer {
  return pcmWav(40 * 2, 16, 0, i);
}

/** `n` tiny WAVs in `dir`, in sub-folders of 1,000 (part-000/call-000000.wav, ...); returns `dir`. */
export function writeWavFolder(dir: string, n: number): string {
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `part-${String(Math.floor(i / FILES_PER_FOLDER)).padStart(3, '0')}`);
    if (i % FILES_PER_FOLDER === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `call-${String(i).padStart(6, '0')}.wav`), tinyWav(i));
  }
  return dir;
}

/** A PCM WAV (8 kHz, 8-bit mono) of `seconds` of near silence whose first samples carry `i`: a recording of that length. */
export function wavOfSeconds(seconds: number, i: number): Buffer {
  return pcmWav(Math.round(seconds * 8000), 8, 0x80, i);
}
