// The team's shared store as the host sees it (`--store URL`): undefined until first read, null
// when the host works on its data folder only. The Team screen reads it again every second.
import { create } from 'zustand';
import type { TeamView } from '../../../shared/contract';
import { client, errorMessage } from '../client';

interface TeamState {
  view: TeamView | null | undefined;
  /** Why the last read failed (the store is unreachable, say); the last view stays shown. */
  error: string | null;
  load(): Promise<void>;
}

export const useTeamStore = create<TeamState>()((set) => ({
  view: undefined,
  error: null,
  async load() {
    try {
      set({ view: await client().call('team.get', {}), error: null });
    } catch (e) {
      set({ error: errorMessage(e) });
    }
  },
}));
