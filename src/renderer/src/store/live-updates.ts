// Wires pushed events into the stores. Payloads are checked against the contract's event
// schemas; a malformed one is dropped (the next snapshot carries the state anyway).
import { events } from '../../../shared/contract-calls';
import { client } from '../client';
import { useBatchesStore } from './batches-store';
import { useConnectionStore } from './connection-store';
import { useRunnerStore } from './runner-store';
import { navigate } from '../routing/use-route';
import { useEngineStore } from './engine-store';

/**
 * When no snapshot has arrived for this long, the list is read again: it covers snapshots missed
 * while the host restarted. (Not while snapshots flow: a slower list answer could overtake one.)
 */
const RESYNC_MS = 15_000;

export function startLiveUpdates(): () => void {
  const c = client();
  let lastSnapshot = Date.now();
  const offSnapshot = c.on('batches.snapshot', (payload) => {
    lastSnapshot = Date.now();
    const parsed = events['batches.snapshot'].safeParse(payload);
    if (parsed.success) useBatchesStore.getState().merge(parsed.data.batches);
    else console.warn('Dropped a malformed batches.snapshot event', parsed.error.issues[0]);
  });
  const offConnection = c.on('connection.changed', (payload) => {
    const parsed = events['connection.changed'].safeParse(payload);
    if (parsed.success) useConnectionStore.getState().set(parsed.data);
  });
  const offRunner = c.on('runner.changed', (payload) => {
    const parsed = events['runner.changed'].safeParse(payload);
    if (parsed.success) useRunnerStore.getState().set(parsed.data);
  });
  // The desktop app asks for a batch when its notification is clicked.
  const offOpenBatch = c.on('app.openBatch', (payload) => {
    const parsed = events['app.openBatch'].safeParse(payload);
    if (parsed.success) navigate({ name: 'batch', id: parsed.data.id, jobId: null, ...(parsed.data.review ? { review: true } : {}) });
  });
  const reload = (): void => {
    void useBatchesStore.getState().load();
    void useConnectionStore.getState().load();
    void useRunnerStore.getState().load();
  };
  const offEngine = c.on('engine.changed', (payload) => {
    const parsed = events['engine.changed'].safeParse(payload);
    if (!parsed.success) return;
    useEngineStore.getState().set(parsed.data);
    // A new engine is up: what changed while none was (snapshots missed) is read again.
    if (parsed.data.state === 'running') reload();
  });
  reload();
  const timer = window.setInterval(() => {
    if (Date.now() - lastSnapshot < RESYNC_MS) return;
    reload();
  }, RESYNC_MS);
  return () => {
    offSnapshot();
    offConnection();
    offRunner();
    offOpenBatch();
    offEngine();
    window.clearInterval(timer);
  };
}
