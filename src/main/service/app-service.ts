// Everything a long-running face (desktop window or browser host) needs around the engine:
// the connection, the background run loop, coalesced snapshots, and the handler map.
import type { Writable } from 'node:stream';
import { databaseFile } from '../engine/data-dir';
import { Engine, type EngineOptions } from '../engine/engine';
import type { EventName, EventOf } from '../../shared/contract';
import { ConnectionManager } from './connection-manager';
import { RunController } from './run-controller';
import { SnapshotCoalescer } from './snapshot-coalescer';
import { createHandlers, nothingSucceeded, type Handlers, type HandlerDeps } from './handlers';
import { exportFileName, localDay } from './export-file-name';
import { itemFileKindOrRefuse } from '../engine/exporters/export-files';
import type { ZipExport } from '../engine/exporters/export-zip';
import { dispatch, type DispatchResult } from './dispatch';
import type { WatchSession } from '../engine/watch/hot-folders';
import type { Desk } from '../desk/desk';
import { localDesk } from '../desk/local-desk';
import { openDesk } from '../desk/open-desk';
import type { StoreChoice } from '../engine/store/store-url';

export const APP_VERSION = '0.1.0';

export interface AppServiceOptions extends EngineOptions {
  transport: 'electron' | 'browser';
  apiUrl: string | null;
  /** How often to try again while another process holds the data folder (tests shorten it). */
  busyRetryMs?: number;
  /** How long a dropped file must hold still before a watched folder takes it (tests shorten it). */
  watchStableMs?: number;
  openDialog?: HandlerDeps['openDialog'];
  /** Electron's folder dialog for "Save results to folder..."; absent in the browser host. */
  chooseFolder?: HandlerDeps['chooseFolder'];
  /** Electron's shell.showItemInFolder for "Show in folder"; absent in the browser host. */
  showInFolder?: HandlerDeps['showInFolder'];
  /** The desk opened for this service (AppService.open); without one, the data folder's. */
  desk?: Desk;
}

type Emit = <E extends EventName>(event: E, payload: EventOf<E>) => void;

export class AppService {
  /**
   * The service over the desk `choice` names: this computer's data folder, or a team's store (the
   * browser host's `--store URL`), whose batches the window then shows and acts on.
   */
  static async open(opts: AppServiceOptions & { store: StoreChoice }): Promise<AppService> {
    // The window's calls are answered on the engine's thread: its imports keep long work off it.
    const desk = await openDesk(opts.store, () => Engine.open({ interactive: true, ...opts }));
    try {
      return new AppService({ ...opts, desk });
    } catch (e) {
      await desk.close();
      throw e;
    }
  }

  readonly engine: Engine;
  /** The batches the window shows and acts on. */
  readonly desk: Desk;
  readonly connections: ConnectionManager;
  readonly runs: RunController;
  readonly handlers: Handlers;
  readonly exports = new Map<string, { path: string; fileName: string }>();
  private readonly coalescer: SnapshotCoalescer;
  private readonly emitters = new Set<Emit>();
  private readonly unsubscribe: () => void;
  private watching: WatchSession | null = null;
  private readonly watchStableMs: number | undefined;

  constructor(opts: AppServiceOptions) {
    this.watchStableMs = opts.watchStableMs;
    // The window's calls are answered on the engine's thread: its imports keep long work off it.
    this.engine = opts.desk ? opts.desk.engine() : Engine.open({ interactive: true, ...opts });
    this.desk = opts.desk ?? localDesk(this.engine, () => this.engine.close());
    const env = opts.env ?? process.env;
    this.connections = new ConnectionManager(this.engine, env, opts.apiUrl);
    this.runs = new RunController(
      this.engine,
      this.connections,
      (message) => this.engine.logger.log('error', 'run.failed', { message }),
      (status) => this.emit('runner.changed', status),
      opts.busyRetryMs,
    );
    this.coalescer = new SnapshotCoalescer(
      (id) => {
        // A batch removed meanwhile (an import given up) is left out.
        return this.desk.control.summary(id).catch(() => null);
      },
      (batches) => this.emit('batches.snapshot', { batches }),
    );
    this.unsubscribe = this.desk.onChange((id) => this.coalescer.mark(id));
    this.handlers = createHandlers({
      engine: this.engine,
      desk: this.desk,
      connections: this.connections,
      runs: this.runs,
      transport: opts.transport,
      version: APP_VERSION,
      openDialog: opts.openDialog ?? (async () => ({ supported: false, paths: [] })),
      ...(opts.chooseFolder ? { chooseFolder: opts.chooseFolder } : {}),
      ...(opts.showInFolder ? { showInFolder: opts.showInFolder } : {}),
      exports: this.exports,
      pathAllowed: opts.transport === 'browser' ? (p) => this.engine.isUpload(p) : () => true,
      onConnectionChanged: () => {
        void this.connections.view().then(
          (c) => this.emit('connection.changed', c),
          () => undefined,
        );
        if (this.desk.sendsHere) this.runs.kick();
      },
      onWatchesChanged: () => void this.watching?.sync(),
    });
  }

  /**
   * Resume batches the user started that did not finish (never ones only created): the first run
   * recovers whatever a crash left running.
   */
  start(): void {
    // A team's store is sent by its workers (`batchdesk run --store`), not by the window's process.
    if (!this.desk.sendsHere) return;
    this.runs.kick();
    // Watched folders: files that came while the app was closed are taken now, new ones as they come.
    this.watching ??= this.engine.hotFolders.watch({
      ...(this.watchStableMs !== undefined ? { stableMs: this.watchStableMs } : {}),
      onEvent: (e) => {
        if (e.kind === 'taken') this.runs.kick();
      },
      onError: (message) => this.engine.logger.log('warn', 'watch.failed', { message }),
    });
  }

  /**
   * The data folder's database, for the window's reader thread (reader/) to open read-only; null
   * on a team's store, whose reads the engine answers.
   */
  get readOnlyFile(): string | null {
    return this.desk.url === null ? databaseFile(this.engine.dataDir) : null;
  }

  call(method: string, arg: unknown): Promise<DispatchResult> {
    return dispatch(this.handlers, method, arg);
  }

  subscribe(emit: Emit): () => void {
    this.emitters.add(emit);
    return () => this.emitters.delete(emit);
  }

  private emit<E extends EventName>(event: E, payload: EventOf<E>): void {
    for (const e of this.emitters) e(event, payload);
  }

  /** A job's input file (`source`) or the file its answer was saved as (`output`). */
  jobFile(jobId: number, which: 'source' | 'output'): Promise<{ path: string; mime: string; size: number } | null> {
    return this.desk.jobFile(jobId, which);
  }

  /** An export made by `batches.export`, by its download token. */
  download(token: string): { path: string; fileName: string } | null {
    return this.exports.get(token) ?? null;
  }

  /**
   * The browser's "Download results (.zip)": checks the batch before a byte is sent (it exists, its
   * items have files, something succeeded) and names the download; `write` streams the zip and
   * logs what it left out or why it stopped.
   */
  async filesZip(idOrPrefix: string): Promise<{ fileName: string; write(out: Writable): Promise<void> }> {
    const id = await this.desk.control.resolveBatchId(idOrPrefix);
    const batch = await this.desk.control.summary(id);
    itemFileKindOrRefuse(batch);
    if (batch.counts.succeeded === 0) throw nothingSucceeded(batch.name);
    const { engine, desk } = this;
    return {
      fileName: exportFileName(batch.name, id, '-files.zip', localDay(engine.clock.now())),
      async write(out) {
        let r: ZipExport;
        try {
          r = await desk.exportFilesZip(id, out);
        } catch (e) {
          engine.logger.log('warn', 'host.files_zip_failed', { batch: id, message: e instanceof Error ? e.message : String(e) });
          throw e;
        }
        if (r.problemCount > 0)
          engine.logger.log('warn', 'host.files_zip_incomplete', { batch: id, left_out: r.problemCount, first: r.problems[0]?.message ?? null });
      },
    };
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.coalescer.dispose();
    await this.watching?.close();
    await this.runs.stop();
    await this.connections.close();
    await this.desk.close();
  }
}
