// out/main/reader.js: the window's reader, a worker thread of the window's process (Electron main,
// the browser host's server) with its own read-only connection to the data folder. It answers the
// window's reads (read-methods.ts) while the engine's process is busy importing or sending: its
// thread is not the engine's, and in WAL mode its reads never wait on the engine's writes. One call
// at a time, each in one read transaction. A read it cannot answer is handed back (null), and the
// window's process asks the engine.
import { parentPort, workerData } from 'node:worker_threads';
import { ReadOnlyView, IndexBehind } from '../../engine/reader/read-only-view';
import { dispatch } from '../dispatch';
import type { Handlers } from '../handlers';
import { createReadHandlers, EngineAnswers } from './read-handlers';
import { FromReader, ReaderData, ToReader, type TroubleNote } from './reader-protocol';
import { isReadMethod } from './read-methods';

const port = parentPort;
if (!port) throw new Error("reader-thread.ts runs as a worker thread of the window's process.");

const data = ReaderData.parse(workerData);
const trouble = new Map<string, TroubleNote['trouble']>();
const view = ReadOnlyView.open(data.file, { trouble: (id) => trouble.get(id) ?? null });
const post = (m: FromReader): void => port.postMessage(m);

/** Set by a call the reader leaves to the engine, so that its answer is not sent as an error. */
let handedBack = false;

/** Each read in a read transaction of its own. */
const handlers: Partial<Record<string, (arg: never) => Promise<unknown>>> = {};
for (const [method, handler] of Object.entries(createReadHandlers(view)) as [string, (arg: never) => Promise<unknown>][]) {
  handlers[method] = (arg) =>
    view
      .read(() => handler(arg))
      .catch((e: unknown) => {
        if (e instanceof IndexBehind || e instanceof EngineAnswers) handedBack = true;
        throw e;
      });
}

let queue: Promise<void> = Promise.resolve();

port.on('message', (raw: unknown) => {
  const parsed = ToReader.safeParse(raw);
  if (!parsed.success) return;
  const m = parsed.data;
  switch (m.type) {
    case 'call': {
      // One at a time: each read holds its own snapshot of the connection while it awaits.
      queue = queue.then(async () => {
        if (!isReadMethod(m.method)) return post({ type: 'result', id: m.id, response: null });
        handedBack = false;
        const response = await dispatch(handlers as Partial<Handlers>, m.method, m.arg);
        // A failure of the reader itself (SQLite busy, a file it cannot read) is not the window's
        // answer: the engine, whose connection is the data folder's own, gives that.
        const own = !response.ok && (response.error.code === 'internal' || response.error.code === 'unavailable');
        post({ type: 'result', id: m.id, response: handedBack || own ? null : response });
      });
      return;
    }
    case 'trouble':
      for (const b of m.batches) {
        if (b.trouble === null) trouble.delete(b.id);
        else trouble.set(b.id, b.trouble);
      }
      return;
    case 'close':
      void queue.then(() => {
        view.close();
        port.close();
      });
      return;
  }
});

post({ type: 'ready' });
