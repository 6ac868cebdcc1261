// Compressed audio (mp3, m4a, ogg/opus, flac, webm): the duration is read by music-metadata, a
// maintained container parser, fed by the same chunks as the hash (no second read of the file).
// Backpressure is honoured, so memory stays bounded; once the parser has what it needs, the
// remaining chunks go only to the hash. A file it cannot parse, or with no duration, is refused.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { MediaType } from '../../../shared/media';
import { FIX_RECORDING, refused, type Checked, type StreamCheck } from './format-check';

type MusicMetadata = typeof import('music-metadata');

const MIN_BITS_PER_SECOND = 1000;
let loading: Promise<MusicMetadata> | null = null;

/** Loaded on first use: only imports that include compressed audio need it. */
function loadMusicMetadata(): Promise<MusicMetadata> {
  loading ??= import('music-metadata').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

export class AudioDurationCheck implements StreamCheck {
  private readonly input = new PassThrough({ highWaterMark: 256 * 1024 });
  private readonly result: Promise<Checked>;
  private settled = false;

  constructor(type: MediaType, size: number) {
    // A write after the parser stopped reading must not surface as an unhandled stream error.
    this.input.on('error', () => undefined);
    const what = `is not a readable ${type.ext} recording`;
    this.result = loadMusicMetadata().then(
      (mm) =>
        mm.parseStream(this.input, { mimeType: type.mime, size }, { duration: true, skipCovers: true, skipPostHeaders: true }).then(
          (meta): Checked => {
            const seconds = meta.format.duration;
            if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
              return refused(`${what}: no audio frames were found in it`, FIX_RECORDING);
            }
            // A header announcing more audio than the file can hold (a FLAC or MP3 header with its
            // frames cut off): no codec these containers carry goes below 1 kbit/s.
            if ((size * 8) / seconds < MIN_BITS_PER_SECOND) {
              return refused(
                `${what}: it is cut short (its header announces ${seconds.toFixed(1)} s of audio, but its ${size} bytes cannot hold that much)`,
                FIX_RECORDING,
              );
            }
            // An estimate all the same: the server measures what it bills (A11), and its figure wins.
            return { ok: true, units: Math.max(1, Math.ceil(seconds)), exact: false };
          },
          (err: unknown): Checked => {
            const detail = err instanceof Error ? err.message : String(err);
            return refused(`${what}: its audio stream could not be parsed (${detail})`, FIX_RECORDING);
          },
        ),
      (err: unknown) => {
        const detail = err instanceof Error ? err.message : String(err);
        throw new Error(`the audio reader (music-metadata) could not be loaded: ${detail}. Reinstall Batchdesk (npm install) and try again`);
      },
    );
    // finish() awaits the result; a check disposed early (another failure, an abort) does not.
    this.result
      .catch(() => undefined)
      .finally(() => {
        this.settled = true;
        this.input.destroy();
      });
  }

  async push(chunk: Buffer): Promise<void> {
    if (this.settled || this.input.destroyed) return;
    if (this.input.write(chunk)) return;
    // Wait for the parser to read, or to finish without reading the rest; the listeners of the
    // wait that did not happen are removed (one per blocked chunk would pile up otherwise).
    const waits = new AbortController();
    try {
      await Promise.race([once(this.input, 'drain', { signal: waits.signal }), once(this.input, 'close', { signal: waits.signal }), this.result]);
    } catch {
      // the stream closed with an error: the parser's verdict says what happened
    } finally {
      waits.abort();
    }
  }

  async finish(): Promise<Checked> {
    if (!this.settled && !this.input.writableEnded) this.input.end();
    return this.result;
  }

  dispose(): void {
    this.input.destroy();
  }
}
