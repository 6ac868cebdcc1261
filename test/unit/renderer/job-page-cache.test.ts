// The job table's page cache: the visible pages first, then the pages ahead in the direction of
// scrolling; a bounded number of pages kept (least recently wanted dropped, never a visible one);
// stale rows kept on screen while their page is fetched again; a failed page not retried in a loop.
import { describe, expect, it } from 'vitest';
import type { JobPage, JobRowView } from '../../../src/shared/contract';
import { JobPageCache, PAGE_SIZE } from '../../../src/renderer/src/jobs/job-page-cache';

const TOTAL = 1_000_000;

function rowAt(i: number, tag = ''): JobRowView {
  return {
    id: i + 1,
    seq: i + 1,
    state: 'queued',
    source: `rows.csv row ${i + 2}${tag}`,
    itemPath: `rows.csv row ${i + 2}${tag}`,
    attempts: 0,
    cost: null,
    estimatedCost: 50,
    error: null,
    errorKind: null,
    invoice: null,
    result: null,
    madeUp: false,
    failedChecks: null,
    suggested: null,
    reviewDecision: null,
    recipient: null,
    delivery: null,
    fields: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    note: null,
  };
}

/** A fake jobs.list whose answers the test releases: the order of requests is what is checked. */
function fakeServer(total = TOTAL) {
  const pending: { page: number; resolve: (p: JobPage) => void; reject: (e: Error) => void }[] = [];
  const asked: number[] = [];
  let tag = '';
  const fetch = (offset: number, limit: number): Promise<JobPage> =>
    new Promise<JobPage>((resolve, reject) => {
      const page = offset / PAGE_SIZE;
      asked.push(page);
      pending.push({
        page,
        resolve: () => resolve({ total, offset, rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, k) => rowAt(offset + k, tag)) }),
        reject,
      });
    });
  /** Answers every request on its way (and those they lead to), until none is left. */
  const flush = async (): Promise<void> => {
    for (let rounds = 0; pending.length > 0 && rounds < 1000; rounds++) {
      const p = pending.shift();
      p?.resolve({ total, offset: 0, rows: [] });
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  const fail = async (): Promise<void> => {
    const p = pending.shift();
    p?.reject(new Error('HTTP 500'));
    await new Promise((r) => setTimeout(r, 0));
  };
  return { fetch, asked, pending, flush, fail, retag: (t: string) => (tag = t) };
}

describe('JobPageCache', () => {
  it('asks for the visible page alone until the total is known, then the pages around it', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    cache.ensure(0, 30);
    expect(server.asked).toEqual([0]);
    await server.flush();
    expect(cache.total).toBe(TOTAL);
    expect(cache.row(0)?.source).toBe('rows.csv row 2');
    // Then the pages ahead (down at rest): 1 and 2; none before page 0.
    expect(server.asked).toEqual([0, 1, 2]);
  });

  it('fetches ahead in the direction of scrolling, the visible pages first, a few at a time', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    cache.ensure(0, 30);
    await server.flush();
    server.asked.length = 0;
    // Scrolling down into page 50: 50 first, then 51, 49, 52.
    cache.ensure(50 * PAGE_SIZE + 10, 50 * PAGE_SIZE + 40, 'forward');
    expect(server.pending.map((p) => p.page)).toEqual([50, 51]);
    await server.flush();
    expect(server.asked).toEqual([50, 51, 49, 52]);
    // Scrolling up from page 500: 500, then 499, 501, 498.
    server.asked.length = 0;
    cache.ensure(500 * PAGE_SIZE + 10, 500 * PAGE_SIZE + 40, 'backward');
    await server.flush();
    expect(server.asked).toEqual([500, 499, 501, 498]);
    // Nothing past the last row is asked for.
    server.asked.length = 0;
    cache.ensure(TOTAL - 30, TOTAL - 1, 'forward');
    await server.flush();
    expect(server.asked).toEqual([TOTAL / PAGE_SIZE - 1, TOTAL / PAGE_SIZE - 2]);
    expect(cache.row(TOTAL - 1)?.source).toBe(`rows.csv row ${TOTAL + 1}`);
  });

  it('drops a page the window has left before it was asked for', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    cache.ensure(0, 30);
    await server.flush();
    server.asked.length = 0;
    // A scrollbar drag: three places in a row before any answer comes.
    cache.ensure(100 * PAGE_SIZE, 100 * PAGE_SIZE + 30, 'forward');
    cache.ensure(300 * PAGE_SIZE, 300 * PAGE_SIZE + 30, 'forward');
    cache.ensure(700 * PAGE_SIZE, 700 * PAGE_SIZE + 30, 'forward');
    await server.flush();
    // The two asked for at once went out; of the rest only the last place's pages.
    expect(server.asked).toEqual([100, 101, 700, 701, 699, 702]);
  });

  it('keeps a bounded number of pages, the least recently wanted dropped, never a visible one', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    for (let p = 0; p < 400; p += 3) {
      cache.ensure(p * PAGE_SIZE, p * PAGE_SIZE + 30, 'forward');
      await server.flush();
      expect(cache.pageCount).toBeLessThanOrEqual(40);
      expect(cache.row(p * PAGE_SIZE)).toBeDefined();
    }
    // The first pages went long ago; the last ones are there.
    expect(cache.row(0)).toBeUndefined();
    expect(cache.row(399 * PAGE_SIZE)).toBeDefined();
  });

  it('shows stale rows while their page is fetched again, then the fresh ones', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    cache.ensure(0, 30);
    await server.flush();
    server.asked.length = 0;
    server.retag(' (new)');
    cache.invalidate();
    expect(server.pending.map((p) => p.page)).toEqual([0, 1]);
    // Nothing blanked while the answers are on their way.
    expect(cache.row(0)?.source).toBe('rows.csv row 2');
    expect(cache.row(250)?.source).toBe('rows.csv row 252');
    await server.flush();
    expect(cache.row(0)?.source).toBe('rows.csv row 2 (new)');
  });

  it('reports a failed page and does not retry it by itself; the next ensure does', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    cache.ensure(0, 30);
    await server.fail();
    expect(cache.error).toBe('HTTP 500');
    expect(server.pending).toHaveLength(0);
    cache.ensure(0, 30);
    await server.flush();
    expect(cache.error).toBeNull();
    expect(cache.row(5)?.source).toBe('rows.csv row 7');
  });

  it('ignores answers after dispose', async () => {
    const server = fakeServer();
    const cache = new JobPageCache(server.fetch);
    let changes = 0;
    cache.subscribe(() => changes++);
    cache.ensure(0, 30);
    cache.dispose();
    await server.flush();
    expect(changes).toBe(0);
    expect(cache.row(0)).toBeUndefined();
  });
});
