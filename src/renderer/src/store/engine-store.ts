// The engine's own process as the window's process reports it (engine.changed): shown while it is
// being restarted after a crash, or when it kept stopping and was given up on.
import { create } from 'zustand';
import type { EngineStatus } from '../../../shared/contract';

interface EngineState {
  /** null until something happened: an engine that never stopped is not mentioned. */
  status: EngineStatus | null;
  set(status: EngineStatus): void;
}

export const useEngineStore = create<EngineState>()((set) => ({
  status: null,
  set(status) {
    set({ status });
  },
}));
