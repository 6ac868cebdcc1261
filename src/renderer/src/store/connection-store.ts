// Which API the engine talks to (embedded sandbox or a real URL) and which keys it uses.
import { create } from 'zustand';
import type { Connection } from '../../../shared/contract';
import { client, errorMessage } from '../client';

interface ConnectionState {
  connection: Connection | null;
  error: string | null;
  load(): Promise<void>;
  set(connection: Connection): void;
}

export const useConnectionStore = create<ConnectionState>()((set) => ({
  connection: null,
  error: null,
  async load() {
    try {
      set({ connection: await client().call('connection.get', {}), error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  },
  set(connection) {
    set({ connection, error: null });
  },
}));

export const useSandbox = (): boolean => useConnectionStore((s) => s.connection?.sandbox ?? false);
