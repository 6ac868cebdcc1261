import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      // zod is in the bundle, not loaded from node_modules: every command needs it, and as ~100
      // separate ES modules it cost each start ~40 ms of resolving and loading (one file: ~10 ms).
      externalizeDeps: { exclude: ['zod'] },
      rolldownOptions: {
        // The desktop shell and the command line share one engine bundle graph.
        input: {
          index: resolve('src/main/electron/main.ts'),
          cli: resolve('src/main/cli/entry.ts'),
          host: resolve('src/main/host/main.ts'),
          // The engine's own process (utilityProcess in the app, a Node child of the browser host).
          engine: resolve('src/main/service/engine-process/entry.ts'),
          // The window's reader: a worker thread of the window's process, the data folder opened read-only.
          reader: resolve('src/main/service/reader/reader-thread.ts'),
          // A folder's import, on a worker thread of the engine's process.
          'import-thread': resolve('src/main/engine/create/import-thread.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only require electron: bundle everything else into it.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: {
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
