// Window side of a stream through the protocol: a Readable fed by the engine's chunks, granting the
// engine one more chunk each time one is taken up by its reader (see stream-sender.ts).
import { Readable } from 'node:stream';

export class StreamReceiver extends Readable {
  /** Chunks taken in while the reader was full: granted back when it asks for more. */
  private owed = 0;
  private ended = false;

  constructor(
    private readonly grant: () => void,
    private readonly cancel: (reason: string) => void,
  ) {
    super();
  }

  receive(data: Uint8Array): void {
    if (this.destroyed) return;
    if (this.push(data)) this.grant();
    else this.owed++;
  }

  finish(): void {
    this.ended = true;
    this.push(null);
  }

  fail(message: string): void {
    this.ended = true;
    this.destroy(new Error(message));
  }

  override _read(): void {
    for (; this.owed > 0; this.owed--) this.grant();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The reader went away before the end: the engine stops making the rest.
    if (!this.ended) this.cancel(error?.message ?? 'the reader closed');
    callback(error);
  }
}
