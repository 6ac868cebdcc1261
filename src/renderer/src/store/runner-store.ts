// The background sender's state: idle, sending, blocked by another Batchdesk on the same data
// folder, or stopped by a failure (a full disk). Pushed as runner.changed; read once at start.
import { create } from 'zustand';
import type { RunnerStatus } from '../../../shared/contract';
import { client } from '../client';

interface RunnerState {
  status: RunnerStatus | null;
  load(): Promise<void>;
  set(status: RunnerStatus): void;
}

export const useRunnerStore = create<RunnerState>()((set) => ({
  status: null,
  async load() {
    try {
      set({ status: await client().call('runner.get', {}) });
    } catch {
      // The connection line reports an unreachable host.
    }
  },
  set(status) {
    set({ status });
  },
}));
