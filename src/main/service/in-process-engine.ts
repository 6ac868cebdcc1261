// The engine in the window's own thread, behind the same EngineLink as the engine process: for
// tests of the transports that reach into the engine, and for the bench's "before" figures. The
// app and the browser host run the engine in a process of its own (engine-process/).
import type { AppService } from './app-service';
import type { EngineInfo, EngineLink, EventSink, FileRef, LogFields, RemovedUpload, ZipStream } from './engine-link';
import type { DispatchResult } from './dispatch';
import type { RpcError } from '../../shared/contract';
import { toRpcError } from './rpc-errors';

export class InProcessEngine implements EngineLink {
  constructor(readonly service: AppService) {}

  ready(): Promise<EngineInfo> {
    return Promise.resolve({ dataDir: this.service.engine.dataDir, uploadsDir: this.service.engine.uploadsDir });
  }

  call(method: string, arg: unknown): Promise<DispatchResult> {
    return this.service.call(method, arg);
  }

  subscribe(sink: EventSink): () => void {
    return this.service.subscribe(sink);
  }

  async jobFile(jobId: number, which: 'source' | 'output'): Promise<FileRef | null> {
    return this.service.jobFile(jobId, which);
  }

  async download(token: string): Promise<{ path: string; fileName: string } | null> {
    return this.service.download(token);
  }

  async filesZip(id: string): Promise<{ ok: true; zip: ZipStream } | { ok: false; error: RpcError }> {
    try {
      return { ok: true, zip: await this.service.filesZip(id) };
    } catch (e) {
      return { ok: false, error: toRpcError(e, this.service.engine.dataDir) };
    }
  }

  sweepUploads(liveParts: readonly string[], partAgeMs: number): Promise<RemovedUpload[]> {
    return this.service.engine.sweepUploads({ liveParts: new Set(liveParts), partAgeMs });
  }

  async busy(): Promise<boolean> {
    return this.service.runs.isBusy();
  }

  log(level: 'info' | 'warn' | 'error', event: string, fields: LogFields): void {
    this.service.engine.logger.log(level, event, fields);
  }

  start(): void {
    this.service.start();
  }

  close(): Promise<void> {
    return this.service.close();
  }
}
