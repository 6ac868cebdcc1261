// out/main/engine.js: the engine in a process of its own, so that no import or dispatch can stall
// the window's process (Electron main, the browser host's server). Started by the app as an
// Electron utilityProcess and by `npm run web` as a Node child; both talk through parent-port.ts.
// The first message is `init`; the engine opens the data folder (and a team's shared store) itself,
// says `ready` (or `failed`, then waits to be closed), and serves the protocol until `close`.
import { fileURLToPath } from 'node:url';
import { parentPort, type ParentPort } from './parent-port';
import { EngineInit, ToEngine } from './protocol';
import { EngineServer, ShellClient } from './engine-server';
import { warmUp } from './warm-up';
import { AppService } from '../app-service';
import { KeychainStore } from '../../engine/secrets/secret-store';
import { classifyFailure } from '../../engine/failures';

const port = parentPort();
if (!port) {
  process.stderr.write("This is Batchdesk's engine process: the desktop app and `npm run web` start it. Run `npm run web` or `batchdesk` instead.\n");
  process.exit(2);
}
serve(port);

function serve(port: ParentPort): void {
  // Ctrl-C in a terminal reaches the whole process group: the window's process decides when the
  // engine stops (it sends `close`), so a quit still lets the engine finish its writes.
  process.on('SIGINT', () => undefined);

  let service: AppService | null = null;
  let server: EngineServer | null = null;
  let initialised = false;
  let closing: Promise<void> | null = null;

  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await service?.close().catch(() => undefined);
    })().finally(() => process.exit(0)));

  const begin = async (init: EngineInit): Promise<void> => {
    const shell = new ShellClient((m) => port.post(m));
    try {
      // One desk: the data folder's batches, or a team's store's (the PostgreSQL client loaded only then).
      service = await AppService.open({
        store: init.storeUrl !== null ? { kind: 'postgresql', url: init.storeUrl } : { kind: 'sqlite' },
        dataDir: init.dataDir,
        secrets: new KeychainStore(),
        transport: init.transport,
        apiUrl: init.apiUrl,
        ...shell.helpers(init.shell),
        ...(init.busyRetryMs !== undefined ? { busyRetryMs: init.busyRetryMs } : {}),
        ...(init.watchStableMs !== undefined ? { watchStableMs: init.watchStableMs } : {}),
        ...(init.backoff ? { config: { backoff: init.backoff } } : {}),
        // A long schema update is announced where the command line and the host say it: stderr.
        onUpgrade: (message) => process.stderr.write(`${message}\n`),
        // A folder's import runs on a thread of its own (engine/create/off-thread-import.ts).
        importThread: { entry: fileURLToPath(new URL('./import-thread.js', import.meta.url)) },
      });
    } catch (e) {
      const f = classifyFailure(e, init.dataDir);
      port.post({ type: 'failed', kind: f.kind, message: f.message });
      return;
    }
    server = new EngineServer(service, port, shell, () => void close());
    warmUp();
    port.post({ type: 'ready', dataDir: service.engine.dataDir, uploadsDir: service.engine.uploadsDir, readDb: service.readOnlyFile });
  };

  port.onMessage((raw) => {
    if (server) return server.handle(raw);
    const m = ToEngine.safeParse(raw);
    if (!m.success) return;
    if (m.data.type === 'close') return void close();
    if (m.data.type === 'init' && !initialised) {
      initialised = true;
      void begin(m.data.init);
    }
  });
  // The window's process died without a word (killed): end with it at once, as Electron ends its
  // utility processes, so that the data folder is free for the next start. Nothing is lost: the
  // queue is durable, and what was in flight is resent with its key then.
  port.onGone(() => process.exit(0));
}
