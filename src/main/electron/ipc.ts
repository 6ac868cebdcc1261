// Binds every contract method with ipcMain.handle and forwards events to the window. A call is
// served only when it comes from the app's own page (app://batchdesk), never from another frame,
// and is answered by the engine's own process.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { type EventName } from '../../shared/contract';
import { METHOD_NAMES } from '../../shared/contract-calls';
import type { EngineLink } from '../service/engine-link';
import { APP_ORIGIN } from './secure-window';

export const methodChannel = (method: string): string => `bd:${method}`;
export const eventChannel = (event: EventName): string => `bd-event:${event}`;

function trusted(e: IpcMainInvokeEvent): boolean {
  const url = e.senderFrame?.url ?? '';
  return url === `${APP_ORIGIN}/` || url.startsWith(`${APP_ORIGIN}/`);
}

export function bindIpc(ipcMain: IpcMain, engine: EngineLink, target: () => WebContents | null): () => void {
  for (const method of METHOD_NAMES) {
    ipcMain.handle(methodChannel(method), async (e, arg: unknown) => {
      if (!trusted(e)) return { ok: false, error: { code: 'invalid_argument', message: 'Refused: the call did not come from the Batchdesk window.' } };
      return engine.call(method, arg);
    });
  }
  const unsubscribe = engine.subscribe((event, payload) => {
    const wc = target();
    if (wc && !wc.isDestroyed()) wc.send(eventChannel(event), payload);
  });
  return () => {
    unsubscribe();
    for (const method of METHOD_NAMES) ipcMain.removeHandler(methodChannel(method));
  };
}
