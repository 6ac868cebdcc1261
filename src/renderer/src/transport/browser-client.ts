// The browser host's transport: RPC over same-origin POST /rpc/<method>, events over a
// WebSocket at /events, uploads by PUT /upload. The access token travels in an HttpOnly
// cookie the host set when the printed URL was opened, so this code never sees it.
import type { ArgOf, EventName, EventOf, MethodName, ResultOf } from '../../../shared/contract';
import { RpcError } from '../../../shared/contract-calls';
import { RpcFailure, type BatchdeskClient, type DroppedFile } from './client';
import { t } from '../i18n';

type Listener = (payload: unknown) => void;

export function createBrowserClient(): BatchdeskClient {
  const listeners = new Map<string, Set<Listener>>();
  const linkListeners = new Set<(up: boolean) => void>();
  let linkUp = false;
  let retry = 500;
  const setLink = (up: boolean): void => {
    if (up === linkUp) return;
    linkUp = up;
    for (const l of linkListeners) l(up);
  };

  const connect = (): void => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/events`);
    ws.onopen = () => {
      retry = 500;
      setLink(true);
    };
    ws.onmessage = (m) => {
      try {
        const msg = JSON.parse(String(m.data)) as { event?: string; payload?: unknown };
        if (typeof msg.event === 'string') for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
      } catch {
        // A malformed frame is dropped; the next snapshot carries the state anyway.
      }
    };
    ws.onclose = () => {
      setLink(false);
      // The host may be restarting (crash recovery): keep trying, backing off to 5 s.
      setTimeout(connect, retry);
      retry = Math.min(5_000, retry * 2);
    };
  };
  connect();

  async function call<M extends MethodName>(method: M, arg: ArgOf<M>): Promise<ResultOf<M>> {
    let res: Response;
    try {
      res = await fetch(`/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(arg) });
    } catch {
      throw new RpcFailure('unavailable', t('common:hostUnreachable'));
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const err = RpcError.safeParse((body as { error?: unknown } | null)?.error);
      throw err.success ? new RpcFailure(err.data.code, err.data.message, err.data.refusal ?? null) : new RpcFailure('internal', `HTTP ${res.status}`);
    }
    return body as ResultOf<M>;
  }

  async function pathsForDrop(entries: DroppedFile[], onProgress?: (done: number, total: number) => void): Promise<string[]> {
    const session = crypto.randomUUID();
    const tops = new Set<string>();
    let done = 0;
    for (const e of entries) {
      const res = await fetch(`/upload?session=${session}&path=${encodeURIComponent(e.relativePath)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: e.file,
      });
      const body = (await res.json().catch(() => null)) as { path?: string; top?: string; error?: { message?: string } } | null;
      if (!res.ok || !body?.top) throw new RpcFailure('invalid_argument', body?.error?.message ?? `Upload of ${e.relativePath} failed (HTTP ${res.status}).`);
      tops.add(body.top);
      onProgress?.(++done, entries.length);
    }
    return [...tops];
  }

  return {
    transport: 'browser',
    call,
    on<E extends EventName>(event: E, listener: (payload: EventOf<E>) => void) {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      const l = listener as Listener;
      set.add(l);
      return () => set.delete(l);
    },
    pathsForDrop,
    sourceUrl: (jobId) => `/source/${jobId}`,
    outputUrl: (jobId) => `/output/${jobId}`,
    downloadUrl: (token) => `/download/${encodeURIComponent(token)}`,
    filesZipUrl: (batchId) => `/files/${encodeURIComponent(batchId)}.zip`,
    onLink(listener) {
      linkListeners.add(listener);
      listener(linkUp);
      return () => linkListeners.delete(listener);
    },
  };
}
