// Window side of the reader thread (reader-thread.ts): started once the engine says which database
// it opened, it answers the window's reads while the engine's thread is busy. Whatever it cannot
// answer (not started yet, stopped, a read it hands back) resolves null: the caller asks the engine,
// so the reader only ever makes a read faster, never wrong or missing.
import { Worker } from 'node:worker_threads';
import type { DispatchResult } from '../dispatch';
import { FromReader, type ReaderData, type ToReader, type TroubleNote } from './reader-protocol';
import { isReadMethod } from './read-methods';

/** Starts the reader thread: out/main/reader.js when built, the source through a loader in tests. */
export type SpawnReader = (data: ReaderData) => Worker;

export function readerThread(entry: string, opts: { execArgv?: string[] } = {}): SpawnReader {
  return (data) => new Worker(entry, { workerData: data, ...(opts.execArgv ? { execArgv: opts.execArgv } : {}) });
}

/** How long a closing reader may take to finish the read it is on before it is ended. */
const CLOSE_MS = 2_000;

export class ReaderClient {
  private readonly worker: Worker;
  private up = false;
  private gone = false;
  private next = 0;
  private readonly pending = new Map<number, (r: DispatchResult | null) => void>();
  private readonly exited: Promise<void>;

  constructor(
    spawn: SpawnReader,
    file: string,
    /** Told once when the thread fails or ends on its own: the engine answers every read from then on. */
    onFailure: (message: string) => void,
  ) {
    this.worker = spawn({ file });
    // Never what keeps the window's process alive.
    this.worker.unref();
    const fail = (message: string): void => {
      if (this.gone) return;
      this.gone = true;
      this.handBack();
      onFailure(message);
    };
    this.worker.on('message', (raw: unknown) => this.receive(raw));
    this.worker.on('error', (e) => fail(e.message));
    this.exited = new Promise<void>((resolve) =>
      this.worker.on('exit', (code) => {
        fail(`the reader thread ended (exit code ${code})`);
        resolve();
      }),
    );
  }

  /** True while the thread answers reads. */
  get answering(): boolean {
    return this.up && !this.gone;
  }

  /** The reader's answer, or null when the engine must answer this call. */
  call(method: string, arg: unknown): Promise<DispatchResult | null> {
    if (!this.up || this.gone || !isReadMethod(method)) return Promise.resolve(null);
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.post({ type: 'call', id, method, arg });
    });
  }

  /** What the engine's pushed snapshots say of batches' trouble with the API (only the engine sees its answers). */
  trouble(batches: readonly TroubleNote[]): void {
    if (!this.gone && batches.length > 0) this.post({ type: 'trouble', batches: [...batches] });
  }

  async close(): Promise<void> {
    if (!this.gone) {
      this.gone = true;
      this.handBack();
      this.post({ type: 'close' });
      const timer = setTimeout(() => void this.worker.terminate(), CLOSE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    await this.exited;
  }

  private receive(raw: unknown): void {
    const parsed = FromReader.safeParse(raw);
    if (!parsed.success) return;
    const m = parsed.data;
    if (m.type === 'ready') {
      this.up = true;
      return;
    }
    const settle = this.pending.get(m.id);
    this.pending.delete(m.id);
    settle?.(m.response);
  }

  /** Reads in flight go to the engine. */
  private handBack(): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const settle of pending) settle(null);
  }

  private post(m: ToReader): void {
    this.worker.postMessage(m);
  }
}
