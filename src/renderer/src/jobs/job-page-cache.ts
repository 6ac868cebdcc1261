// Pages of a batch's job list (for one filter), fetched as the visible window needs them and
// ahead of it in the direction of scrolling, so rows are there before they scroll into view. The
// pages kept are bounded (least recently wanted go first: a 1,000,000-row batch is never held
// whole). Invalidation marks every page stale: stale rows stay on screen until their fresh page
// arrives, so live updates never blank the table.
import type { JobPage, JobRowView } from '../../../shared/contract';

export const PAGE_SIZE = 200;
/** Pages kept (40 pages = 8,000 rows); the least recently wanted beyond that are dropped. */
const MAX_PAGES = 40;
/** Pages fetched past the visible ones in the direction of scrolling (and one the other way). */
const AHEAD_PAGES = 2;
/** Requests on their way at once: the visible pages are asked for first, the rest queue. */
const MAX_INFLIGHT = 2;

type Fetch = (offset: number, limit: number) => Promise<JobPage>;

interface Page {
  rows: JobRowView[];
  stale: boolean;
}

export type ScrollDirection = 'forward' | 'backward' | null;

export class JobPageCache {
  /** In order of last use: the first entries are the least recently wanted. */
  private readonly pages = new Map<number, Page>();
  private readonly inflight = new Set<number>();
  private readonly listeners = new Set<() => void>();
  /** Pages to fetch, most needed first (rebuilt by every ensure()). */
  private queue: number[] = [];
  private generation = 0;
  /** Bumped by invalidate(): a page whose request started before the bump is stale on arrival. */
  private epoch = 0;
  private want: { first: number; last: number; direction: ScrollDirection } = { first: 0, last: 0, direction: null };
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

  /** How many pages are held (for tests and the bench). */
  get pageCount(): number {
    return this.pages.size;
  }

  /**
   * Rows first..last (inclusive) are on screen: make sure they are loaded or loading, then the
   * pages ahead of them in `direction` (when scrolling) and one page either side.
   */
  ensure(first: number, last: number, direction: ScrollDirection = null): void {
    this.want = { first, last, direction };
    const lastPage = this.total === null ? null : Math.max(0, Math.ceil(this.total / PAGE_SIZE) - 1);
    const from = Math.floor(Math.max(0, first) / PAGE_SIZE);
    const to = Math.max(from, Math.floor(Math.max(0, last) / PAGE_SIZE));
    const wanted: number[] = [];
    for (let p = from; p <= to; p++) wanted.push(p);
    // Nearest first, the side scrolled towards before the other (down when at rest).
    const up = direction === 'backward';
    for (let k = 1; k <= AHEAD_PAGES; k++) {
      wanted.push(up ? from - k : to + k);
      if (k === 1) wanted.push(up ? to + 1 : from - 1);
    }
    const valid = wanted.filter((p) => p >= 0 && (lastPage === null ? p <= to : p <= lastPage));
    // Least recently used order: what is wanted now moves to the back (visible pages last of all).
    for (const p of [...valid].reverse()) {
      const page = this.pages.get(p);
      if (page) {
        this.pages.delete(p);
        this.pages.set(p, page);
      }
    }
    this.queue = valid.filter((p) => {
      const page = this.pages.get(p);
      return (!page || page.stale) && !this.inflight.has(p);
    });
    this.pump();
  }

  /** The data changed on the server: refetch what is on screen and ahead, the rest when shown. */
  invalidate(): void {
    this.epoch++;
    for (const page of this.pages.values()) page.stale = true;
    this.ensure(this.want.first, this.want.last, this.want.direction);
  }

  private pump(): void {
    while (this.inflight.size < MAX_INFLIGHT) {
      const p = this.queue.shift();
      if (p === undefined) return;
      void this.load(p);
    }
  }

  private async load(pageIndex: number): Promise<void> {
    const gen = this.generation;
    const epoch = this.epoch;
    let refetch = false;
    let failed = false;
    this.inflight.add(pageIndex);
    try {
      const res = await this.fetchPage(pageIndex * PAGE_SIZE, PAGE_SIZE);
      if (gen !== this.generation) return;
      // Data changed while this request was on its way: show it, but ask again.
      refetch = epoch !== this.epoch;
      this.pages.delete(pageIndex);
      this.pages.set(pageIndex, { rows: res.rows, stale: refetch });
      const first = this.total === null;
      if (res.total !== this.total) {
        this.total = res.total;
        // Pages past the new end hold rows that no longer exist.
        for (const p of this.pages.keys()) if (p * PAGE_SIZE >= res.total) this.pages.delete(p);
      }
      this.error = null;
      this.evict();
      // The first answer tells how many rows there are: the pages around can be asked for now.
      if (first) refetch = true;
    } catch (e) {
      if (gen !== this.generation) return;
      failed = true;
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      if (gen === this.generation) {
        this.inflight.delete(pageIndex);
        this.changed();
        // A failed page waits for the next scroll or "Try again"; the queue goes on.
        if (refetch && !failed) this.ensure(this.want.first, this.want.last, this.want.direction);
        else this.pump();
      }
    }
  }

  /** Drops the least recently wanted pages beyond MAX_PAGES, never one on screen. */
  private evict(): void {
    if (this.pages.size <= MAX_PAGES) return;
    const from = Math.floor(this.want.first / PAGE_SIZE);
    const to = Math.floor(this.want.last / PAGE_SIZE);
    for (const p of this.pages.keys()) {
      if (this.pages.size <= MAX_PAGES) return;
      if (p < from || p > to) this.pages.delete(p);
    }
  }

  /** Stop: answers still on their way are ignored. */
  dispose(): void {
    this.generation++;
    this.queue = [];
    this.listeners.clear();
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
