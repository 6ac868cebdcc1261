// What a window's process (Electron main, the browser host's server) asks of the engine, wherever
// the engine runs: in a process of its own (engine-process/engine-client.ts, the app and the host)
// or in the same thread (in-process-engine.ts: tests of the transports, the bench's comparison).
import type { Writable } from 'node:stream';
import { type ArgOf, type EventName, type MethodName, type ResultOf, type RpcError } from '../../shared/contract';
import { methods } from '../../shared/contract-calls';
import type { DispatchResult } from './dispatch';
import type { RemovedUpload } from '../engine/create/upload-sweep';

export type { DispatchResult, RemovedUpload };

export interface EngineInfo {
  dataDir: string;
  /** Where the browser host streams dropped files to: <data folder>/uploads (the engine's rule). */
  uploadsDir: string;
}

export interface FileRef {
  path: string;
  mime: string;
  size: number;
}

/** A zip being made for the browser's "Download results (.zip)": `write` streams it into `out`. */
export interface ZipStream {
  fileName: string;
  /** Rejects when `out` went away or a file could not be read half way (the zip is then incomplete). */
  write(out: Writable): Promise<void>;
}

/** Pushed events; payloads were checked by the engine and are passed on as they are. */
export type EventSink = (event: EventName, payload: unknown) => void;

export type LogFields = Record<string, string | number | boolean | null>;

export interface EngineLink {
  /** Resolves once the engine has opened its data folder; rejects when it could not. */
  ready(): Promise<EngineInfo>;
  /** A contract call: validated, run and answered by the engine (never rejects). */
  call(method: string, arg: unknown): Promise<DispatchResult>;
  subscribe(sink: EventSink): () => void;
  /** A job's input file (`source`) or the file its answer was saved as (`output`). */
  jobFile(jobId: number, which: 'source' | 'output'): Promise<FileRef | null>;
  /** An export made by `batches.export`, by its download token. */
  download(token: string): Promise<{ path: string; fileName: string } | null>;
  /** A batch's result files as a zip, or why there is none (refused before any byte is sent). */
  filesZip(id: string): Promise<{ ok: true; zip: ZipStream } | { ok: false; error: RpcError }>;
  /**
   * Removes abandoned browser drops' files no item uses and interrupted uploads' temporary files
   * (engine/create/upload-sweep.ts), in the engine's process, which knows the items; says what went.
   */
  sweepUploads(liveParts: readonly string[], partAgeMs: number): Promise<RemovedUpload[]>;
  /** True while items are being sent: quitting would interrupt them (the quit dialog asks). */
  busy(): Promise<boolean>;
  /** A line for the data folder's log. */
  log(level: 'info' | 'warn' | 'error', event: string, fields: LogFields): void;
  /** Resume started batches and watched folders (what opening the app does). */
  start(): void;
  close(): Promise<void>;
}

/** The engine cannot answer now (it stopped, is restarting or closing): the transports answer 503. */
export class EngineUnavailableError extends Error {}

/** A contract call whose answer the window's process reads itself (checked against the contract). */
export async function callFor<M extends MethodName>(link: EngineLink, method: M, arg: ArgOf<M>): Promise<ResultOf<M>> {
  const r = await link.call(method, arg);
  if (!r.ok) throw new Error(r.error.message);
  return methods[method].result.parse(r.result) as ResultOf<M>;
}
