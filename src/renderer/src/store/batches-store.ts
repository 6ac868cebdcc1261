// Every batch the window knows, by id: loaded with batches.list, then merged from the
// batches.snapshot event (which carries only the batches that changed).
import { create } from 'zustand';
import type { BatchSummary } from '../../../shared/domain';
import { client, errorMessage } from '../client';
import { addSample, type Sample } from './throughput';

interface BatchesState {
  byId: Record<string, BatchSummary>;
  samples: Record<string, Sample[]>;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  fetchOne(id: string): Promise<void>;
  merge(batches: readonly BatchSummary[]): void;
}

export const processed = (b: BatchSummary): number => b.counts.succeeded + b.counts.failed;

export const useBatchesStore = create<BatchesState>()((set, get) => ({
  byId: {},
  samples: {},
  loaded: false,
  error: null,
  async load() {
    try {
      const list = await client().call('batches.list', {});
      get().merge(list);
      set({ loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: errorMessage(e) });
    }
  },
  async fetchOne(id) {
    const b = await client().call('batches.get', { id });
    get().merge([b]);
  },
  merge(batches) {
    if (batches.length === 0) return;
    const now = Date.now();
    set((s) => {
      const byId = { ...s.byId };
      const samples = { ...s.samples };
      for (const b of batches) {
        const prev = byId[b.id];
        // A late answer must not roll a batch back to an older state (updated_at moves only on
        // batch-level changes, so equal times are accepted).
        if (prev && prev.updated_at > b.updated_at) continue;
        byId[b.id] = b;
        samples[b.id] = addSample(samples[b.id] ?? [], { t: now, done: processed(b) });
      }
      return { byId, samples };
    });
  },
}));

/** Changes whenever anything shown about the batch changes (updated_at alone does not move per job). */
export function batchVersion(b: BatchSummary): string {
  const c = b.counts;
  return `${b.updated_at}|${b.status}|${c.queued},${c.running},${c.retry_wait},${c.succeeded},${c.failed},${c.cancelled}|${b.cost.spent}|${c.needs_review}`;
}

/** Newest first. */
export function sortBatches(byId: Record<string, BatchSummary>): BatchSummary[] {
  return Object.values(byId).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
}
