// Shared test helpers for the importer tests: real temp folders and small valid media files.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildPdf, buildWav } from '../../../scripts/make-samples';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Creates a fresh temp folder per test and removes it afterwards. */
export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'batchdesk-importers-'));
      made.push(dir);
      return dir;
    },
    cleanup: async () => {
      for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function put(path: string, bytes: Uint8Array | string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}

/** A PCM WAV of `seconds` at 8 kHz 16-bit mono; `seed` varies the samples so hashes differ. */
export function wav(seconds: number, seed = 1): Buffer {
  const pcm = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = ((i * seed * 37) % 2000) - 1000;
  return buildWav(pcm, { title: `test ${seed}`, comment: `seed ${seed}` });
}

/** A PDF with `pages` pages, each with one line of text. */
export function pdf(pages: number, label = 'test'): Buffer {
  return buildPdf(
    Array.from({ length: pages }, (_, i) => [{ text: `${label} page ${i + 1}` }]),
    label,
  );
}
