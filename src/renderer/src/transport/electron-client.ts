// The Electron transport: the preload's window.batchdesk (contextBridge), typed from the contract.
import type { ArgOf, EventName, EventOf, MethodName, ResultOf } from '../../../shared/contract';
import { RpcFailure, type BatchdeskClient } from './client';
import { Refusal } from '../../../shared/refusals';

/** Exactly what src/preload/index.ts exposes. */
export interface PreloadApi {
  call(
    method: string,
    arg: unknown,
  ): Promise<{ ok: true; result: unknown } | { ok: false; error: { code: RpcFailure['code']; message: string; refusal?: unknown } }>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    batchdesk?: PreloadApi;
  }
}

export function createElectronClient(api: PreloadApi): BatchdeskClient {
  return {
    transport: 'electron',
    async call<M extends MethodName>(method: M, arg: ArgOf<M>): Promise<ResultOf<M>> {
      const r = await api.call(method, arg);
      if (!r.ok) {
        // The refusal's code is read as the contract says; one that does not parse leaves the engine's words.
        const refusal = Refusal.safeParse(r.error.refusal);
        throw new RpcFailure(r.error.code, r.error.message, refusal.success ? refusal.data : null);
      }
      return r.result as ResultOf<M>;
    },
    on<E extends EventName>(event: E, listener: (payload: EventOf<E>) => void) {
      return api.on(event, listener as (p: unknown) => void);
    },
    // Electron reads files in place: a dropped folder is one path, walked by the engine.
    async pathsForDrop(entries) {
      const tops = new Set<string>();
      for (const e of entries) {
        const p = api.pathForFile(e.file);
        if (p) tops.add(p);
      }
      return [...tops];
    },
    sourceUrl: (jobId) => `app://batchdesk/source/${jobId}`,
    outputUrl: (jobId) => `app://batchdesk/output/${jobId}`,
    downloadUrl: (token) => `app://batchdesk/download/${encodeURIComponent(token)}`,
    // The desktop app writes the files into a folder the user picks (batches.saveFiles).
    filesZipUrl: () => null,
    // The engine lives in the same app: the link cannot drop while the window exists.
    onLink: (listener) => {
      listener(true);
      return () => undefined;
    },
  };
}
