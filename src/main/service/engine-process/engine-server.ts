// Engine side of the protocol: answers the window's process for one AppService (contract calls,
// file and zip requests, the busy question), pushes its events, and asks the window's process
// for Electron's dialogs when a handler needs one.
import type { AppService } from '../app-service';
import type { HandlerDeps } from '../handlers';
import { toRpcError } from '../rpc-errors';
import { assertNever } from '../../../shared/domain';
import type { DispatchResult } from '../dispatch';
import {
  faceRequests,
  shellRequests,
  ToEngine,
  type FaceRequestName,
  type FromEngine,
  type ShellArg,
  type ShellRequestName,
  type ShellResult,
} from './protocol';
import { StreamSender } from './stream-sender';
import type { ParentPort } from './parent-port';

type Shell = Pick<HandlerDeps, 'openDialog' | 'chooseFolder' | 'showInFolder'>;

/** Asks the window's process for its native helpers, one numbered request each. */
export class ShellClient {
  private next = 0;
  private readonly pending = new Map<number, { name: ShellRequestName; resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly post: (m: FromEngine) => void) {}

  ask<N extends ShellRequestName>(name: N, arg: ShellArg<N>): Promise<ShellResult<N>> {
    const id = this.next++;
    return new Promise<ShellResult<N>>((resolve, reject) => {
      this.pending.set(id, { name, resolve: (v) => resolve(v as ShellResult<N>), reject });
      this.post({ type: 'shell', id, name, arg });
    });
  }

  answer(id: number, answer: { ok: true; result: unknown } | { ok: false; message: string }): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (!answer.ok) return p.reject(new Error(answer.message));
    const parsed = shellRequests[p.name].result.safeParse(answer.result);
    if (parsed.success) p.resolve(parsed.data);
    else p.reject(new Error(`The window's process answered ${p.name} with something unexpected.`));
  }

  /** The handlers' view: only the helpers the window's process said it has. */
  helpers(has: { openDialog: boolean; chooseFolder: boolean; showInFolder: boolean }): Partial<Shell> {
    return {
      ...(has.openDialog ? { openDialog: (kind: 'files' | 'folder' | 'csv') => this.ask('openDialog', { kind }) } : {}),
      ...(has.chooseFolder ? { chooseFolder: (title: string) => this.ask('chooseFolder', { title }) } : {}),
      ...(has.showInFolder ? { showInFolder: async (path: string) => void (await this.ask('showInFolder', { path })) } : {}),
    };
  }
}

export class EngineServer {
  private readonly streams = new Map<number, StreamSender>();
  private nextStream = 0;

  constructor(
    private readonly service: AppService,
    private readonly port: ParentPort,
    private readonly shell: ShellClient,
    private readonly onClose: () => void,
  ) {
    service.subscribe((event, payload) => port.post({ type: 'event', event, payload }));
  }

  /** One message from the window's process (already past `init`). */
  handle(raw: unknown): void {
    const parsed = ToEngine.safeParse(raw);
    if (!parsed.success) {
      this.service.engine.logger.log('error', 'engine.bad_message', { issue: parsed.error.issues[0]?.message ?? 'unreadable' });
      return;
    }
    const m = parsed.data;
    switch (m.type) {
      case 'call':
        void this.service.call(m.method, m.arg).then((response) => this.port.post({ type: 'result', id: m.id, response }));
        return;
      case 'request':
        void this.request(m.name, m.arg).then((response) => this.port.post({ type: 'result', id: m.id, response }));
        return;
      case 'shell.answer':
        return this.shell.answer(m.id, m.answer);
      case 'stream.credit':
        return this.streams.get(m.stream)?.credit();
      case 'stream.cancel':
        this.streams.get(m.stream)?.destroy(new Error(`the download was cancelled (${m.reason})`));
        this.streams.delete(m.stream);
        return;
      case 'start':
        return this.service.start();
      case 'log':
        return this.service.engine.logger.log(m.level, m.event, m.fields);
      case 'close':
        return this.onClose();
      case 'ping':
        return this.port.post({ type: 'pong', id: m.id });
      case 'init':
        // Only the first message may be `init`; a second one is a bug of the window's process.
        this.service.engine.logger.log('error', 'engine.bad_message', { issue: 'init sent twice' });
        return;
      default:
        return assertNever(m, 'message to the engine');
    }
  }

  private async request(name: FaceRequestName, raw: unknown): Promise<DispatchResult> {
    try {
      switch (name) {
        case 'jobFile': {
          const a = faceRequests.jobFile.arg.parse(raw);
          return { ok: true, result: await this.service.jobFile(a.jobId, a.which) };
        }
        case 'download':
          return { ok: true, result: this.service.download(faceRequests.download.arg.parse(raw).token) };
        case 'filesZip':
          return { ok: true, result: await this.filesZip(faceRequests.filesZip.arg.parse(raw).id) };
        case 'busy':
          return { ok: true, result: await this.service.runs.isBusy() };
        case 'sweepUploads': {
          const a = faceRequests.sweepUploads.arg.parse(raw);
          return { ok: true, result: await this.service.engine.sweepUploads({ liveParts: new Set(a.liveParts), partAgeMs: a.partAgeMs }) };
        }
        default:
          return assertNever(name, 'request');
      }
    } catch (e) {
      return { ok: false, error: toRpcError(e, this.service.engine.dataDir) };
    }
  }

  /** Checked and named now; the zip itself is streamed to the window's process as it is read. */
  private async filesZip(id: string): Promise<unknown> {
    let zip: Awaited<ReturnType<AppService['filesZip']>>;
    try {
      zip = await this.service.filesZip(id);
    } catch (e) {
      return { ok: false, error: toRpcError(e, this.service.engine.dataDir) };
    }
    const stream = this.nextStream++;
    const out = new StreamSender(stream, (m) => this.port.post(m));
    this.streams.set(stream, out);
    // Posted after the answer naming the stream: the window's process is ready for its chunks.
    setImmediate(() => {
      zip
        .write(out)
        .then(
          () => this.port.post({ type: 'stream.end', stream }),
          (e: unknown) => {
            if (this.streams.has(stream)) this.port.post({ type: 'stream.error', stream, message: e instanceof Error ? e.message : String(e) });
          },
        )
        .finally(() => this.streams.delete(stream));
    });
    return { ok: true, fileName: zip.fileName, stream };
  }
}
