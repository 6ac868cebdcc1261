// Window side of the protocol: the EngineLink of Electron main and the browser host's server over an
// engine in a process of its own. It numbers calls and requests, passes events on, serves the
// engine's shell requests (Electron's dialogs), and keeps the engine up: when its process ends
// unexpectedly, calls in flight are answered `unavailable` naming what happened, the window is
// told (engine.changed), and a new engine process is started on the same data folder (the queue
// is durable: the new one resumes what the old one was sending). Calls made meanwhile wait for it.
// An engine that is alive but stuck (its thread never free to answer a ping) is stopped and
// restarted the same way, rather than leaving the window waiting forever.
import { pipeline } from 'node:stream/promises';
import type { EngineStatus, RpcError } from '../../../shared/contract';
import { assertNever } from '../../../shared/domain';
import type { FailureKind } from '../../engine/failures';
import {
  EngineUnavailableError,
  type DispatchResult,
  type EngineInfo,
  type EngineLink,
  type EventSink,
  type FileRef,
  type LogFields,
  type RemovedUpload,
  type ZipStream,
} from '../engine-link';
import type { HandlerDeps } from '../handlers';
import {
  faceRequests,
  FromEngine,
  shellRequests,
  type EngineInit,
  type FaceArg,
  type FaceRequestName,
  type FaceResult,
  type ShellRequestName,
  type ToEngine,
} from './protocol';
import { StreamReceiver } from './stream-receiver';
import { ReaderClient, type SpawnReader } from '../reader/reader-client';
import { TroubleNote } from '../reader/reader-protocol';
import { isReadMethod } from '../reader/read-methods';
import { z } from 'zod';

/** One running engine process, however it was started (utilityProcess, a Node child). */
export interface EngineProcess {
  readonly pid: number | undefined;
  post(message: ToEngine): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process has ended, with how in words ("exit code 1", "killed by SIGKILL"). */
  onExit(listener: (how: string) => void): void;
  kill(): void;
}

export type SpawnEngine = () => EngineProcess;

/** Electron's native helpers, served for the engine; absent in the browser host. */
export type ShellHandlers = Partial<Pick<HandlerDeps, 'openDialog' | 'chooseFolder' | 'showInFolder'>>;

/** The engine could not open its data folder or the shared store: why, and which kind of failure. */
export class EngineStartError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** Waits before each new start after crashes in a row; one more crash than this and it stays stopped. */
const RESTART_DELAYS_MS = [0, 500, 2_000, 5_000, 10_000];
/** An engine up this long has recovered: its next crash counts as the first again. */
const STABLE_MS = 60_000;
/** How long a closing engine may take to finish its writes before it is killed. */
const CLOSE_TIMEOUT_MS = 15_000;
/** How often a running engine is pinged. */
const HEARTBEAT_MS = 5_000;
/**
 * Silence after which a running engine counts as hung. Generous: the engine gives way every few
 * milliseconds during long work (time-slice.ts), so even a long transaction stays far below it,
 * and a killed engine loses nothing (the queue is durable), only time.
 */
const HANG_MS = 60_000;

/** The part of a `batches.snapshot` event the reader keeps. */
const SnapshotTrouble = z.object({ batches: z.array(TroubleNote) });

type State = 'starting' | 'running' | 'restarting' | 'stopped' | 'closing' | 'closed';

interface Pending {
  /** What was asked, for the message when the engine dies before answering. */
  what: string;
  settle: (r: DispatchResult) => void;
}

interface Held {
  send: () => void;
  fail: (error: RpcError) => void;
}

export class EngineClient implements EngineLink {
  private proc: EngineProcess | null = null;
  private state: State = 'starting';
  private info: EngineInfo | null = null;
  private readonly firstStart: Promise<EngineInfo>;
  private settleFirst: { resolve: (i: EngineInfo) => void; reject: (e: Error) => void } | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Calls and requests made while the engine is starting or restarting: sent once it is ready. */
  private held: Held[] = [];
  private readonly sinks = new Set<EventSink>();
  private readonly streams = new Map<number, StreamReceiver>();
  private started = false;
  private crashesInARow = 0;
  private upSince = 0;
  /** Why the engine process now starting failed to start (set by `failed`, used when it exits). */
  private startFailure: string | null = null;
  private closed: Promise<void> | null = null;
  private exitWaiters: (() => void)[] = [];

  private readonly restartDelaysMs: readonly number[];
  private readonly heartbeatMs: number;
  private readonly hangMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private lastTick = 0;
  private pingOut: number | null = null;
  private missed = 0;
  /** Set when the engine was stopped for not answering: the words its exit is reported with. */
  private hung: string | null = null;
  /** Why the previous engine process ended, for the log of the next one. */
  private lastExit = '';

  private readonly init: EngineInit;
  /** Starts the window's reader thread (reader/); without it, the engine answers every read. */
  private readonly spawnReader: SpawnReader | null;
  /** The reader over the running engine's data folder, while there is one. */
  private reader: ReaderClient | null = null;

  constructor(
    private readonly spawn: SpawnEngine,
    /** What the engine opens; which of Electron's helpers it may ask for follows from `shell`. */
    init: Omit<EngineInit, 'shell'>,
    private readonly shell: ShellHandlers = {},
    /** Waits before each new start after crashes in a row (tests shorten them). */
    opts: { restartDelaysMs?: readonly number[]; heartbeatMs?: number; hangMs?: number; reader?: SpawnReader } = {},
  ) {
    this.spawnReader = opts.reader ?? null;
    this.restartDelaysMs = opts.restartDelaysMs ?? RESTART_DELAYS_MS;
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.hangMs = opts.hangMs ?? HANG_MS;
    this.init = {
      ...init,
      shell: { openDialog: shell.openDialog !== undefined, chooseFolder: shell.chooseFolder !== undefined, showInFolder: shell.showInFolder !== undefined },
    };
    this.firstStart = new Promise<EngineInfo>((resolve, reject) => (this.settleFirst = { resolve, reject }));
    // Nobody may be waiting yet; a failed start is reported to whoever awaits ready().
    this.firstStart.catch(() => undefined);
    this.launch();
  }

  /** The engine process's id (diagnostics and tests); undefined while none runs. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** True while the window's reads are answered by the reader thread, not the engine (diagnostics and tests). */
  get readsOffEngine(): boolean {
    return this.reader?.answering === true;
  }

  ready(): Promise<EngineInfo> {
    return this.firstStart;
  }

  private launch(): void {
    this.startFailure = null;
    this.hung = null;
    const proc = this.spawn();
    this.proc = proc;
    proc.onMessage((m) => {
      if (this.proc === proc) this.receive(m);
    });
    proc.onExit((how) => {
      if (this.proc === proc) this.exited(how);
    });
    proc.post({ type: 'init', init: this.init });
  }

  private receive(raw: unknown): void {
    const parsed = FromEngine.safeParse(raw);
    if (!parsed.success) {
      this.log('error', 'engine.bad_message', { from: 'engine', issue: parsed.error.issues[0]?.message ?? 'unreadable' });
      return;
    }
    const m = parsed.data;
    // Any message proves the engine's thread is free again.
    this.pingOut = null;
    this.missed = 0;
    switch (m.type) {
      case 'pong':
        return;
      case 'ready':
        this.startReader(m.readDb);
        return this.up({ dataDir: m.dataDir, uploadsDir: m.uploadsDir });
      case 'failed':
        return this.refused(m.kind, m.message);
      case 'result': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        return p?.settle(m.response);
      }
      case 'event':
        if (m.event === 'batches.snapshot') this.noteTrouble(m.payload);
        for (const sink of this.sinks) sink(m.event, m.payload);
        return;
      case 'shell':
        return void this.serveShell(m.name, m.arg).then(
          (result) => this.post({ type: 'shell.answer', id: m.id, answer: { ok: true, result } }),
          (e: unknown) => this.post({ type: 'shell.answer', id: m.id, answer: { ok: false, message: e instanceof Error ? e.message : String(e) } }),
        );
      case 'stream.data':
        return this.streams.get(m.stream)?.receive(m.chunk);
      case 'stream.end':
        this.streams.get(m.stream)?.finish();
        this.streams.delete(m.stream);
        return;
      case 'stream.error':
        this.streams.get(m.stream)?.fail(m.message);
        this.streams.delete(m.stream);
        return;
      default:
        return assertNever(m, 'message from the engine');
    }
  }

  private up(info: EngineInfo): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    const restarted = this.state === 'restarting';
    this.info = info;
    this.state = 'running';
    this.upSince = Date.now();
    this.watch();
    if (this.started) this.post({ type: 'start' });
    const held = this.held;
    this.held = [];
    for (const h of held) h.send();
    if (restarted) {
      this.emitStatus({ state: 'running', message: null });
      // Logged by the new engine: the old one could not write it.
      this.log('warn', 'engine.restarted', { crashes_in_a_row: this.crashesInARow, why: this.lastExit });
    } else {
      this.settleFirst?.resolve(info);
    }
  }

  /** The engine said it cannot start. At launch that is the app's answer; after a crash, one more crash. */
  private refused(kind: FailureKind, message: string): void {
    if (this.state === 'starting') {
      this.settleFirst?.reject(new EngineStartError(kind, message));
      this.stop(message);
    } else {
      this.startFailure = message;
    }
    this.post({ type: 'close' });
  }

  /** Pings the running engine; stops it when it stays silent for `hangMs`. */
  private watch(): void {
    this.pingOut = null;
    this.missed = 0;
    this.lastTick = performance.now();
    if (this.heartbeat !== null) return;
    this.heartbeat = setInterval(() => this.tick(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private tick(): void {
    const now = performance.now();
    // This process itself was not running (the computer slept, or its own thread was held):
    // the silence says nothing about the engine, which gets a fresh start.
    const late = now - this.lastTick > 2 * this.heartbeatMs;
    this.lastTick = now;
    const proc = this.proc;
    if (this.state !== 'running' || proc === null || this.hung !== null) return;
    if (late) {
      this.pingOut = null;
      this.missed = 0;
    } else if (this.pingOut !== null) {
      this.missed++;
    }
    if (this.missed * this.heartbeatMs >= this.hangMs) {
      const seconds = Math.round((this.missed * this.heartbeatMs) / 1000);
      this.hung = `The engine stopped answering (nothing for ${seconds} s), so it was stopped`;
      proc.kill();
      return;
    }
    if (this.pingOut === null) {
      this.pingOut = this.nextId++;
      this.post({ type: 'ping', id: this.pingOut });
    }
  }

  private unwatch(): void {
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private exited(how: string): void {
    this.proc = null;
    this.stopReader();
    this.unwatch();
    for (const w of this.exitWaiters.splice(0)) w();
    if (this.state === 'closing' || this.state === 'closed' || this.state === 'stopped') return;
    if (this.state === 'starting') {
      const message = `The engine process ended before it was ready (${how}).`;
      this.settleFirst?.reject(new EngineStartError('internal', message));
      this.stop(message);
      return;
    }
    const reason =
      this.startFailure !== null
        ? `The engine could not start again (${this.startFailure})`
        : this.hung !== null
          ? this.hung
          : `The engine stopped unexpectedly (${how})`;
    this.lastExit = reason;
    this.failInFlight(
      (what) => `${reason} before answering ${what}. It is being restarted; what was saved before is kept, so look again before repeating a change.`,
    );
    if (this.state === 'running' && Date.now() - this.upSince >= STABLE_MS) this.crashesInARow = 0;
    this.crashesInARow++;
    const delay = this.restartDelaysMs[this.crashesInARow - 1];
    if (delay === undefined) {
      this.stop(
        `${reason}, ${this.crashesInARow} times in a row, so it is not started again. Quit Batchdesk and start it again; the data folder's logs (${this.init.dataDir}) may say why.`,
      );
      return;
    }
    this.state = 'restarting';
    this.emitStatus({ state: 'restarting', message: `${reason}; restarting it…` });
    setTimeout(() => {
      if (this.state === 'restarting') this.launch();
    }, delay);
  }

  /** No engine from now on: everything waiting is answered with why. */
  private stop(message: string): void {
    const wasUp = this.info !== null;
    this.state = 'stopped';
    this.unwatch();
    this.failInFlight(() => message);
    for (const h of this.held.splice(0)) h.fail({ code: 'unavailable', message });
    if (wasUp) this.emitStatus({ state: 'stopped', message });
  }

  private failInFlight(message: (what: string) => string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.settle({ ok: false, error: { code: 'unavailable', message: message(p.what) } });
    for (const s of this.streams.values()) s.fail(message('the download'));
    this.streams.clear();
  }

  private emitStatus(status: EngineStatus): void {
    for (const sink of this.sinks) sink('engine.changed', status);
  }

  private post(m: ToEngine): void {
    this.proc?.post(m);
  }

  /** Sends now when the engine is up, later when it is (re)starting, never when it stopped. */
  private exchange(what: string, message: (id: number) => ToEngine, onAnswer?: (r: DispatchResult) => void): Promise<DispatchResult> {
    return new Promise<DispatchResult>((resolve) => {
      const settle = (r: DispatchResult): void => {
        onAnswer?.(r);
        resolve(r);
      };
      const send = (): void => {
        const id = this.nextId++;
        this.pending.set(id, { what, settle });
        this.post(message(id));
      };
      switch (this.state) {
        case 'running':
          return send();
        case 'starting':
        case 'restarting':
          this.held.push({ send, fail: (error) => resolve({ ok: false, error }) });
          return;
        case 'stopped':
          return resolve({ ok: false, error: { code: 'unavailable', message: 'The engine is not running: quit Batchdesk and start it again.' } });
        case 'closing':
        case 'closed':
          return resolve({ ok: false, error: { code: 'unavailable', message: 'Batchdesk is closing.' } });
        default:
          return assertNever(this.state, 'engine state');
      }
    });
  }

  /** A read the reader thread can answer is answered there, off the engine's thread; the rest by the engine. */
  call(method: string, arg: unknown): Promise<DispatchResult> {
    const toEngine = (): Promise<DispatchResult> => this.exchange(method, (id) => ({ type: 'call', id, method, arg }));
    // Anything else is sent at once, so the engine gets the window's calls in the order made.
    const reader = this.state === 'running' && isReadMethod(method) ? this.reader : null;
    if (reader === null) return toEngine();
    return reader.call(method, arg).then((read) => read ?? toEngine());
  }

  /** A reader over the database the engine opened (none for a team's store, or without a spawner). */
  private startReader(file: string | null): void {
    this.stopReader();
    if (file === null || this.spawnReader === null || this.state === 'closing' || this.state === 'closed') return;
    const reader = new ReaderClient(this.spawnReader, file, (message) => {
      if (this.reader === reader) this.reader = null;
      this.log('warn', 'reader.stopped', { message });
    });
    this.reader = reader;
  }

  private stopReader(): void {
    const r = this.reader;
    this.reader = null;
    void r?.close();
  }

  /** The trouble each snapshot names: the reader shows it too (only the engine sees the API's answers). */
  private noteTrouble(payload: unknown): void {
    if (this.reader === null) return;
    const p = SnapshotTrouble.safeParse(payload);
    if (p.success) this.reader.trouble(p.data.batches);
  }

  private async request<N extends FaceRequestName>(name: N, arg: FaceArg<N>, onAnswer?: (r: DispatchResult) => void): Promise<FaceResult<N>> {
    const r = await this.exchange(name, (id) => ({ type: 'request', id, name, arg }), onAnswer);
    if (!r.ok) throw r.error.code === 'unavailable' ? new EngineUnavailableError(r.error.message) : new Error(r.error.message);
    const parsed = faceRequests[name].result.safeParse(r.result);
    if (!parsed.success) throw new Error(`The engine answered ${name} with something unexpected.`);
    return parsed.data as FaceResult<N>;
  }

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  jobFile(jobId: number, which: 'source' | 'output'): Promise<FileRef | null> {
    return this.request('jobFile', { jobId, which });
  }

  download(token: string): Promise<{ path: string; fileName: string } | null> {
    return this.request('download', { token });
  }

  sweepUploads(liveParts: readonly string[], partAgeMs: number): Promise<RemovedUpload[]> {
    return this.request('sweepUploads', { liveParts: [...liveParts], partAgeMs });
  }

  async filesZip(id: string): Promise<{ ok: true; zip: ZipStream } | { ok: false; error: RpcError }> {
    let receiver: StreamReceiver | null = null;
    // Registered as the answer arrives, before the engine's first chunk can.
    const answer = await this.request('filesZip', { id }, (r) => {
      const named = r.ok ? faceRequests.filesZip.result.safeParse(r.result) : null;
      if (!named?.success || !named.data.ok) return;
      const stream = named.data.stream;
      receiver = new StreamReceiver(
        () => this.post({ type: 'stream.credit', stream }),
        (reason) => {
          this.streams.delete(stream);
          this.post({ type: 'stream.cancel', stream, reason });
        },
      );
      this.streams.set(stream, receiver);
    });
    if (!answer.ok) return answer;
    const source = receiver as StreamReceiver | null;
    if (!source) throw new Error('The engine named no stream for the zip.');
    return {
      ok: true,
      zip: {
        fileName: answer.fileName,
        write: (out) => pipeline(source, out),
      },
    };
  }

  busy(): Promise<boolean> {
    return this.request('busy', {});
  }

  log(level: 'info' | 'warn' | 'error', event: string, fields: LogFields): void {
    if (this.state === 'running') this.post({ type: 'log', level, event, fields });
  }

  start(): void {
    this.started = true;
    if (this.state === 'running') this.post({ type: 'start' });
  }

  private async serveShell(name: ShellRequestName, raw: unknown): Promise<unknown> {
    const missing = (): Error => new Error(`${name} is not available in this window.`);
    switch (name) {
      case 'openDialog': {
        const { kind } = shellRequests.openDialog.arg.parse(raw);
        if (!this.shell.openDialog) throw missing();
        return this.shell.openDialog(kind);
      }
      case 'chooseFolder': {
        const { title } = shellRequests.chooseFolder.arg.parse(raw);
        if (!this.shell.chooseFolder) throw missing();
        return this.shell.chooseFolder(title);
      }
      case 'showInFolder': {
        const { path } = shellRequests.showInFolder.arg.parse(raw);
        if (!this.shell.showInFolder) throw missing();
        await this.shell.showInFolder(path);
        return null;
      }
      default:
        return assertNever(name, 'shell request');
    }
  }

  /** Asks the engine to finish and end (it stops sending; started batches resume at the next start). */
  close(): Promise<void> {
    return (this.closed ??= (async () => {
      this.state = 'closing';
      this.unwatch();
      const reader = this.reader;
      this.reader = null;
      await reader?.close();
      const message = 'Batchdesk is closing.';
      this.failInFlight(() => message);
      for (const h of this.held.splice(0)) h.fail({ code: 'unavailable', message });
      const proc = this.proc;
      if (proc) {
        const gone = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
        proc.post({ type: 'close' });
        const timer = setTimeout(() => proc.kill(), CLOSE_TIMEOUT_MS);
        await gone;
        clearTimeout(timer);
      }
      this.state = 'closed';
      this.settleFirst?.reject(new EngineStartError('unavailable', message));
    })());
  }
}
