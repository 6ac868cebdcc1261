// Pages of a batch's job list (for one filter), fetched on demand as the visible window needs
// them and kept in a Map. Invalidation marks every page stale: stale rows stay on screen until
// their fresh page arrives, so live updates never flash an empty table.
import type { JobPage, JobRowView } from '../../../shared/contract';

export const PAGE_SIZE = 200;
/** Pages kept beyond the ones on screen (100 pages = 20,000 rows); the farthest go first. */
const MAX_PAGES = 100;

type Fetch = (offset: number, limit: number) => Promise<JobPage>;

interface Page {
  rows: JobRowView[];
  stale: boolean;
}

export class JobPageCache {
  private readonly pages = new Map<number, Page>();
  private readonly inflight = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private generation = 0;
  /** Bumped by invalidate(): a page whose request started before the bump is stale on arrival. */
  private epoch = 0;
  private want: { first: number; last: number } = { first: 0, last: 0 };
  total: number | null = null;
  error: string | null = null;
  /** Bumped on every change, for useSyncExternalStore. */
  version = 0;

  constructor(private readonly fetchPage: Fetch) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  row(index: number): JobRowView | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.rows[index % PAGE_SIZE];
  }

  /** Make sure rows first..last (inclusive) are loaded or loading. */
  ensure(first: number, last: number): void {
    this.want = { first, last };
    const from = Math.floor(Math.max(0, first) / PAGE_SIZE);
    const maxRow = this.total === null ? last : Math.min(last, this.total - 1);
    const to = Math.floor(Math.max(0, maxRow) / PAGE_SIZE);
    for (let p = from; p <= to; p++) {
      const page = this.pages.get(p);
      if ((!page || page.stale) && !this.inflight.has(p)) void this.load(p);
    }
  }

  /** The data changed on the server: refetch what is on screen, drop the rest lazily. */
  invalidate(): void {
    this.epoch++;
    for (const page of this.pages.values()) page.stale = true;
    this.ensure(this.want.first, this.want.last);
  }

  private async load(pageIndex: number): Promise<void> {
    const gen = this.generation;
    const epoch = this.epoch;
    let refetch = false;
    this.inflight.add(pageIndex);
    try {
      const res = await this.fetchPage(pageIndex * PAGE_SIZE, PAGE_SIZE);
      if (gen !== this.generation) return;
      // Data changed while this request was on its way: show it, but ask again.
      refetch = epoch !== this.epoch;
      this.pages.set(pageIndex, { rows: res.rows, stale: refetch });
      if (res.total !== this.total) {
        this.total = res.total;
        // Pages past the new end hold rows that no longer exist.
        for (const p of this.pages.keys()) if (p * PAGE_SIZE >= res.total) this.pages.delete(p);
      }
      this.error = null;
      this.evict();
    } catch (e) {
      if (gen !== this.generation) return;
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      if (gen === this.generation) {
        this.inflight.delete(pageIndex);
        this.changed();
        if (refetch) this.ensure(this.want.first, this.want.last);
      }
    }
  }

  private evict(): void {
    if (this.pages.size <= MAX_PAGES) return;
    const centre = Math.floor(this.want.first / PAGE_SIZE);
    const far = [...this.pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const p of far.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(p);
  }

  /** Stop: answers still on their way are ignored. */
  dispose(): void {
    this.generation++;
    this.listeners.clear();
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
