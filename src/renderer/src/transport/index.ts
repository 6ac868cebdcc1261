import type { BatchdeskClient } from './client';
import { createBrowserClient } from './browser-client';
import { createElectronClient } from './electron-client';

/** Electron's preload defines window.batchdesk; otherwise we are served by the browser host. */
export function createClient(): BatchdeskClient {
  return window.batchdesk ? createElectronClient(window.batchdesk) : createBrowserClient();
}

export type { BatchdeskClient, DroppedFile } from './client';
export { RpcFailure } from './client';
