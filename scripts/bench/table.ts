// The `table` section of `npm run bench`: the job table in the window (the browser host in Debian's
// Chromium, headless) for a 1,000,000-row batch beside a 100,000-row one in the same run:
//   - first rows: from opening the batch (#/batches/<id>) to its first rows drawn;
//   - frames showing "Loading…" rows while scrolling as a person does (mouse wheel down and up at
//     a few places, arrow keys held, Page Down), counted in every animation frame;
//   - every row reachable: End, Home, the scrollTop's end and 24 positions across the range show
//     the rows the scroll position maps to (scroll-scale.ts), the last row included.
// The batches are made with the built CLI (`batch create channel`, then `pause`), then a browser
// host is started on that data folder (nothing is sent).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { cliOk } from './cli-child';
import { startHost, rpc } from '../../test/e2e/helpers/processes';
import { rowAtTop, scrollScale } from '../../src/renderer/src/jobs/scroll-scale';
import { PAGE_SIZE } from '../../src/renderer/src/jobs/job-page-cache';
import type { El } from '../../test/e2e/helpers/page-dom';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const ROW_H = 36;
const GRID = '[role="grid"][aria-label="Jobs"]';

/** The few page globals the code run in the page uses (this program compiles without lib "dom"). */
interface Win {
  document: { querySelector(selector: string): El | null };
  location: { hash: string };
  requestAnimationFrame(cb: () => void): number;
  performance: { now(): number; memory?: { usedJSHeapSize: number } };
  gc?: () => void;
  benchFrames?: { frames: number; loading: number; maxRows: number; on: boolean };
}

interface Figures {
  firstRowsMs: number;
  firstPageRpcMs: number;
  lastPageRpcMs: number;
  frames: number;
  loadingFrames: number;
  dragFrames: number;
  dragLoadingFrames: number;
  maxDomRows: number;
  reachable: string[];
  scaled: boolean;
  heapBytes: number;
  /** How fast the wheel moved through the rows (a scaled range moves more rows per pixel). */
  wheelRowsPerS: number;
}

async function messagesCsv(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('to,text,name\n');
  for (let i = 0; i < n; i++) {
    if (!out.write(`+44207946${String(i % 1000).padStart(4, '0')},"Hello {{name}} #${i}",N${i}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The rows inside the rows' viewport (their index and text) and the grid's scroll figures. */
function view(page: Page): Promise<{ scrollTop: number; max: number; viewport: number; scaled: boolean; rows: { index: number; text: string }[] }> {
  return page.evaluate((sel) => {
    const w = globalThis as unknown as Win;
    const grid = w.document.querySelector(sel);
    const head = grid?.querySelector('.job-grid__head');
    if (!grid || !head) throw new Error('no job grid');
    const top = head.getBoundingClientRect().bottom;
    const bottom = grid.getBoundingClientRect().top + 1 + grid.clientHeight;
    const rows = Array.from(grid.querySelectorAll('.job-grid__body [role="row"]'))
      .map((r) => ({ index: Number(r.getAttribute('aria-rowindex')) - 2, box: r.getBoundingClientRect(), text: r.textContent ?? '' }))
      .filter((r) => r.box.bottom > top + 1 && r.box.top < bottom - 1)
      .sort((a, b) => a.box.top - b.box.top)
      .map(({ index, text }) => ({ index, text }));
    return {
      scrollTop: grid.scrollTop,
      max: grid.scrollHeight - grid.clientHeight,
      viewport: bottom - top,
      scaled: grid.getAttribute('data-scaled') === 'true',
      rows,
    };
  }, GRID);
}

const loaded = (v: { rows: { index: number; text: string }[] }): boolean => v.rows.length > 3 && v.rows.every((r) => r.text.includes(` row ${r.index + 2}`));

async function settle(page: Page, timeoutMs = 20_000): Promise<Awaited<ReturnType<typeof view>>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await view(page);
    if (loaded(v) || Date.now() > end) return v;
    await page.waitForTimeout(20);
  }
}

async function scrollTo(page: Page, top: number): Promise<void> {
  await page.evaluate(
    ([sel, t]) => {
      const grid = (globalThis as unknown as Win).document.querySelector(sel);
      if (grid) grid.scrollTop = t;
    },
    [GRID, top] as const,
  );
}

/** Counts animation frames, and those with a "Loading…" row in the rows' viewport, while `on`. */
async function monitor(page: Page, on: boolean): Promise<{ frames: number; loading: number; maxRows: number }> {
  return page.evaluate(
    ([sel, start]) => {
      const w = globalThis as unknown as Win;
      if (start) {
        const m = { frames: 0, loading: 0, maxRows: 0, on: true };
        w.benchFrames = m;
        const tick = (): void => {
          if (!m.on) return;
          const grid = w.document.querySelector(sel);
          const head = grid?.querySelector('.job-grid__head');
          if (grid && head) {
            const top = head.getBoundingClientRect().bottom;
            const bottom = grid.getBoundingClientRect().top + 1 + grid.clientHeight;
            const all = Array.from(grid.querySelectorAll('.job-grid__body [role="row"]'));
            const shown = all.filter((r) => {
              const b = r.getBoundingClientRect();
              return b.bottom > top + 1 && b.top < bottom - 1;
            });
            m.frames++;
            m.maxRows = Math.max(m.maxRows, all.length);
            if (shown.length === 0 || shown.some((r) => (r.textContent ?? '').includes('Loading…'))) m.loading++;
          }
          w.requestAnimationFrame(tick);
        };
        w.requestAnimationFrame(tick);
      } else if (w.benchFrames) {
        w.benchFrames.on = false;
      }
      const m = w.benchFrames ?? { frames: 0, loading: 0, maxRows: 0 };
      return { frames: m.frames, loading: m.loading, maxRows: m.maxRows };
    },
    [GRID, on] as const,
  );
}

async function measure(browser: Browser, root: string, n: number): Promise<Figures> {
  const dir = join(root, `table-${n}`);
  const file = join(root, `table-${n}.csv`);
  await messagesCsv(file, n);
  const created = await cliOk(['batch', 'create', 'channel', file, '--json', '--data-dir', dir]);
  const id = (JSON.parse(created.stdout) as { batch: { id: string } | null }).batch?.id;
  if (!id) throw new Error(`no ${n}-row batch created`);
  await cliOk(['pause', id, '--data-dir', dir]);
  // No API configured: the host starts its embedded sandbox; the batch is paused, nothing is sent.
  const host = await startHost({ dataDir: dir, apiUrl: null, env: { BATCHDESK_API_KEY: 'unused', BATCHDESK_CHANNEL_KEY: 'unused' } });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // tsx (esbuild, keepNames) wraps the named functions inside page.evaluate callbacks in __name():
  // give the page that helper as a no-op (a string, so it is not transformed itself).
  await context.addInitScript('globalThis.__name = (f) => f;');
  const page = await context.newPage();
  try {
    // The floor: one page of the list straight from the host's RPC, first and last.
    const rpcMs = async (offset: number): Promise<number> => {
      const t0 = performance.now();
      await rpc(host, 'jobs.list', { batchId: id, offset, limit: PAGE_SIZE });
      return performance.now() - t0;
    };
    await rpcMs(0);
    const firstPageRpcMs = await rpcMs(0);
    const lastPageRpcMs = await rpcMs(Math.max(0, n - PAGE_SIZE));

    await page.goto(host.openUrl);
    await page.waitForURL(new RegExp(`^${host.url}/`));
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // First rows: from the hash change to the first row's text drawn, timed in the page.
    const firstRowsMs = await page.evaluate(
      ([hash, sel]) =>
        new Promise<number>((resolve) => {
          const w = globalThis as unknown as Win;
          const t0 = w.performance.now();
          w.location.hash = hash;
          const poll = (): void => {
            const row = w.document.querySelector(`${sel} [aria-rowindex="2"]`);
            if (row && (row.textContent ?? '').includes(' row 2')) resolve(w.performance.now() - t0);
            else w.requestAnimationFrame(poll);
          };
          w.requestAnimationFrame(poll);
        }),
      [`#/batches/${id}`, GRID] as const,
    );
    const grid = page.locator(GRID);
    await grid.scrollIntoViewIfNeeded();
    const start = await settle(page);
    const box = await grid.boundingBox();
    if (!box) throw new Error('no grid box');

    // Scrolling as a person does, counted frame by frame: the wheel from the top, the middle and
    // the end (each start settled first, outside the count), arrow keys held, Page Down.
    let rowsPassed = 0;
    let msScrolled = 0;
    const wheel = async (from: number, delta: number, events: number): Promise<{ frames: number; loading: number; maxRows: number }> => {
      await scrollTo(page, from);
      const before = await settle(page);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await monitor(page, true);
      const t0 = performance.now();
      for (let k = 0; k < events; k++) {
        await page.mouse.wheel(0, delta);
        await page.waitForTimeout(40);
      }
      msScrolled += performance.now() - t0;
      await page.waitForTimeout(300);
      const counted = await monitor(page, false);
      rowsPassed += Math.abs(((await view(page)).rows[0]?.index ?? 0) - (before.rows[0]?.index ?? 0));
      return counted;
    };
    const runs = [
      await wheel(0, 100, 80),
      await wheel(Math.round(start.max / 2), 100, 80),
      await wheel(Math.round(start.max * 0.97), 100, 80),
      await wheel(start.max, -100, 80),
    ];
    await scrollTo(page, Math.round(start.max * 0.3));
    await settle(page);
    await grid.locator('[role="row"][tabindex="0"]').focus();
    await monitor(page, true);
    for (let k = 0; k < 120; k++) await page.keyboard.press('ArrowDown', { delay: 0 });
    for (let k = 0; k < 15; k++) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(300);
    runs.push(await monitor(page, false));

    // Dragging the scrollbar (not normal scrolling: shown for comparison): the whole range in 120 frames.
    await scrollTo(page, 0);
    await settle(page);
    await monitor(page, true);
    await page.evaluate(
      ([sel, max]) =>
        new Promise<void>((resolve) => {
          const w = globalThis as unknown as Win;
          const g = w.document.querySelector(sel);
          let k = 0;
          const step = (): void => {
            k++;
            if (g) g.scrollTop = (max * k) / 120;
            if (k < 120) w.requestAnimationFrame(step);
            else resolve();
          };
          w.requestAnimationFrame(step);
        }),
      [GRID, start.max] as const,
    );
    const drag = await monitor(page, false);

    // Every row reachable.
    const problems: string[] = [];
    const scale = scrollScale(n, ROW_H, start.viewport);
    await scrollTo(page, 0);
    await settle(page);
    await grid.locator('[role="row"][aria-rowindex="2"]').focus();
    await page.keyboard.press('End');
    let v = await settle(page);
    if (v.rows.at(-1)?.index !== n - 1 || !loaded(v)) problems.push(`End shows row ${v.rows.at(-1)?.index}`);
    await page.keyboard.press('Home');
    v = await settle(page);
    if (v.rows[0]?.index !== 0) problems.push(`Home shows row ${v.rows[0]?.index}`);
    await scrollTo(page, start.max);
    v = await settle(page);
    if (v.rows.at(-1)?.index !== n - 1 || !loaded(v)) problems.push(`scrollTop max shows row ${v.rows.at(-1)?.index}`);
    for (let k = 0; k < 24; k++) {
      const top = Math.round((start.max * (k + 0.5)) / 24);
      await scrollTo(page, top);
      v = await settle(page);
      const want = rowAtTop(scale, ROW_H, top);
      const got = v.rows[0]?.index ?? -1;
      if (!loaded(v) || (got !== want && got !== want + 1)) problems.push(`scrollTop ${top} shows row ${got}, not ${want}`);
    }
    // The page's JS heap after all that, collected (the cache holds a bounded number of pages).
    const heapBytes = await page.evaluate(() => {
      const w = globalThis as unknown as Win;
      w.gc?.();
      return w.performance.memory?.usedJSHeapSize ?? 0;
    });
    return {
      heapBytes,
      firstRowsMs,
      firstPageRpcMs,
      lastPageRpcMs,
      frames: runs.reduce((s, r) => s + r.frames, 0),
      loadingFrames: runs.reduce((s, r) => s + r.loading, 0),
      dragFrames: drag.frames,
      dragLoadingFrames: drag.loading,
      maxDomRows: Math.max(...runs.map((r) => r.maxRows), drag.maxRows),
      reachable: problems,
      scaled: start.scaled,
      wheelRowsPerS: rowsPassed / (msScrolled / 1000),
    };
  } finally {
    await context.close();
    await host.close();
  }
}

export async function benchTable({ root, report }: { root: string; report: Report }): Promise<void> {
  const browser = await chromium.launch({
    headless: true,
    executablePath: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--enable-precise-memory-info',
      '--js-flags=--expose-gc',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const small = await measure(browser, root, 100_000);
    const big = await measure(browser, root, 1_000_000);
    const pct = (f: Figures): string => `${((100 * f.loadingFrames) / Math.max(1, f.frames)).toFixed(1)}%`;
    const pctDrag = (f: Figures): string => `${((100 * f.dragLoadingFrames) / Math.max(1, f.dragFrames)).toFixed(0)}%`;
    report(
      'job table 1,000,000 rows: first rows',
      `${big.firstRowsMs.toFixed(0)} ms`,
      `${small.firstRowsMs.toFixed(0)} ms @100k`,
      `opening the batch to its first rows drawn (Chromium, browser host); one page of ${PAGE_SIZE} by RPC: ${big.firstPageRpcMs.toFixed(0)} ms first, ${big.lastPageRpcMs.toFixed(0)} ms last (100k: ${small.firstPageRpcMs.toFixed(0)}/${small.lastPageRpcMs.toFixed(0)} ms)`,
    );
    report(
      'job table 1,000,000 rows: Loading frames',
      pct(big),
      `${pct(small)} @100k`,
      `of ${big.frames} animation frames (100k: ${small.frames}) while scrolling by wheel at the top, middle and end, up and down (${big.wheelRowsPerS.toFixed(0)} rows/s; 100k: ${small.wheelRowsPerS.toFixed(0)}), arrow keys held and Page Down; at most ${big.maxDomRows} rows in the DOM; dragging the scrollbar over the whole range in 120 frames: ${pctDrag(big)} (100k: ${pctDrag(small)})`,
    );
    const ok = (f: Figures): string => (f.reachable.length === 0 ? 'yes' : `NO: ${f.reachable.slice(0, 3).join('; ')}`);
    report(
      'job table 1,000,000 rows: every row reachable',
      ok(big),
      `${ok(small)} @100k`,
      `End, Home, the scrollTop's end and 24 positions across it show the rows they map to; scroll range ${big.scaled ? 'scaled' : 'not scaled'} (100k: ${small.scaled ? 'scaled' : 'not scaled'}); page JS heap afterwards ${(big.heapBytes / 1024 / 1024).toFixed(1)} MB (100k: ${(small.heapBytes / 1024 / 1024).toFixed(1)} MB)`,
    );
  } finally {
    await browser.close();
  }
}
