// The preload exposes one typed object to the window; nothing generic (no ipcRenderer).
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('batchdesk', {
  version: '0.1.0',
});
