// Progress reaches the window as coalesced batch snapshots: changes are collected per batch and
// flushed a few times per second, never one event per job.
import type { BatchSummary } from '../../shared/domain';

export class SnapshotCoalescer {
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly summarize: (id: string) => Promise<BatchSummary | null>,
    private readonly emit: (batches: BatchSummary[]) => void,
    private readonly intervalMs = 250,
  ) {}

  mark(batchId: string): void {
    this.dirty.add(batchId);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    this.timer = null;
    const ids = [...this.dirty];
    this.dirty.clear();
    const batches = (await Promise.all(ids.map((id) => this.summarize(id)))).filter((b): b is BatchSummary => b !== null);
    if (batches.length > 0) this.emit(batches);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
