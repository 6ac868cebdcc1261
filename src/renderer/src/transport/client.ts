// What the window talks to, whatever the transport: Electron IPC through the preload's
// window.batchdesk, or the browser host over HTTP + WebSocket. Typed from the shared contract.
import type { ArgOf, EventName, EventOf, MethodName, ResultOf } from '../../../shared/contract';
import type { Refusal } from '../../../shared/refusals';
import { refusalWords } from '../components/refusal-words';

/** A file or folder the user dropped or picked, with its path inside the drop (browser uploads keep folders). */
export interface DroppedFile {
  file: File;
  /** "invoices/2026/a.pdf" for a file inside a dropped folder, "a.pdf" for a dropped file. */
  relativePath: string;
}

/**
 * A call the engine refused or failed. Its message is what the window shows: the refusal in the
 * window's words where the engine gave its code, else the engine's own words.
 */
export class RpcFailure extends Error {
  constructor(
    readonly code: 'invalid_argument' | 'not_found' | 'conflict' | 'unavailable' | 'internal',
    message: string,
    readonly refusal: Refusal | null = null,
  ) {
    super(refusal === null ? message : refusalWords(refusal));
  }
}

export interface BatchdeskClient {
  readonly transport: 'electron' | 'browser';
  call<M extends MethodName>(method: M, arg: ArgOf<M>): Promise<ResultOf<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventOf<E>) => void): () => void;
  /**
   * Turns what the user dropped into paths the engine can read: in Electron the files' own
   * paths (folders included, walked by the engine); in the browser the files are streamed to
   * the host's data folder first and the paths of the uploaded copies are returned.
   */
  pathsForDrop(entries: DroppedFile[], onProgress?: (done: number, total: number) => void): Promise<string[]>;
  /** URL of a job's source file (audio, image, PDF) for <audio>, <img>, <iframe>. */
  sourceUrl(jobId: number): string;
  /** URL of the file a job's answer was saved as (speech, an image). */
  outputUrl(jobId: number): string;
  /** URL that downloads an export (token from batches.export). */
  downloadUrl(token: string): string;
  /**
   * URL that downloads a batch's result files as one zip (the browser host streams it); null where
   * the window saves them into a folder instead (Electron: batches.saveFiles with a native dialog).
   */
  filesZipUrl(batchId: string): string | null;
  /** Whether pushed events can arrive: false while the browser host is down or restarting. */
  onLink(listener: (up: boolean) => void): () => void;
}
