// The preload exposes one typed object, window.batchdesk: contract calls and events by name
// (checked against the contract), and the path of a dropped file. Never ipcRenderer itself.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { EVENT_NAMES, METHOD_NAMES } from '../shared/contract-calls';

const methods = new Set<string>(METHOD_NAMES);
const events = new Set<string>(EVENT_NAMES);

contextBridge.exposeInMainWorld('batchdesk', {
  call(method: string, arg: unknown): Promise<unknown> {
    if (!methods.has(method)) return Promise.resolve({ ok: false, error: { code: 'invalid_argument', message: `Unknown method ${method}.` } });
    return ipcRenderer.invoke(`bd:${method}`, arg);
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (!events.has(event)) throw new Error(`Unknown event ${event}.`);
    const channel = `bd-event:${event}`;
    const wrapped = (_e: unknown, payload: unknown): void => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => ipcRenderer.removeListener(channel, wrapped);
  },
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
});
