// Engine side of a stream through the protocol (the browser's zip download): a Writable whose
// chunks are posted to the window's process, at most STREAM_WINDOW ahead of what it has passed on
// to its reader, so a slow download slows the zip down instead of filling memory.
import { Writable } from 'node:stream';
import { STREAM_WINDOW, type FromEngine } from './protocol';

/** Chunks are posted at most this large (a message per chunk; yazl writes smaller ones anyway). */
const MAX_CHUNK = 64 * 1024;

export class StreamSender extends Writable {
  private credits = STREAM_WINDOW;
  private waiting: (() => void) | null = null;

  constructor(
    readonly id: number,
    private readonly post: (m: FromEngine) => void,
  ) {
    super();
  }

  /** The window's process passed a chunk on: one more may go. */
  credit(): void {
    this.credits++;
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    void this.send(chunk).then(() => callback(), callback);
  }

  private async send(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length; at += MAX_CHUNK) {
      while (this.credits === 0) {
        if (this.destroyed) throw new Error('the download was cancelled');
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
      this.credits--;
      // A copy of the part: the chunk's memory may be a slice of a larger pooled buffer.
      this.post({ type: 'stream.data', stream: this.id, chunk: new Uint8Array(chunk.subarray(at, at + MAX_CHUNK)) });
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
    callback(error);
  }
}
