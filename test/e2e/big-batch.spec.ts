// The job table at 100,000 rows: the page keeps only a window of rows in the DOM, reaches the last
// row, and search narrows the set. Then the same batch with the scaled scroll range forced on (a
// test-only cap of 200,000 px on the sizer, set through window.batchdeskMaxScrollHeight before the
// app loads, so one physical pixel is half a row): every row is reachable by End, Home, the arrow
// and page keys, a scrollbar drag and any scroll position, the rows shown always the ones the
// position maps to. Last, 1,000,000 rows under the real cap (15,000,000 px; a plain list would stop
// near row 932,080): about 45 s here, most of it creating the batch. The frames showing "Loading"
// rows while scrolling are measured by `npm run bench -- table`. Batches are paused right after
// creation so little is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openApp, shot } from './fixtures';
import { createBatch, rpc, type Host } from './helpers/processes';
import { rowAtTop, scrollScale, toPhysical } from '../../src/renderer/src/jobs/scroll-scale';
import type { El } from './helpers/page-dom';

const ROWS = 100_000;
const ROW_H = 36;
const FORCED_CAP = 200_000;

async function bigBatch(host: Host, work: string, rows = ROWS): Promise<string> {
  // Distinct rows: the reserved numbers repeat every 1,000 but the text does not. The CSV's own
  // `ref` column, shown in a message batch's table, names each row as its source would.
  const csv = join(work, 'big.csv');
  const lines = ['to,text,ref'];
  for (let i = 0; i < rows; i++) lines.push(`+44207946${String(i % 1000).padStart(4, '0')},Hello your code is ${1000 + i}.,big.csv row ${i + 2}`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const id = await createBatch(host, 'channel', [csv], { name: 'Big batch' });
  await rpc(host, 'batches.pause', { id });
  return id;
}

test('a 100,000-row batch: virtualized table, end of list, search', async ({ host, page, work }, testInfo) => {
  test.setTimeout(180_000);
  const id = await bigBatch(host, work);

  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${id}`);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 30_000 });
  await expect(grid.getByRole('row').nth(1)).toContainText('big.csv row 2');
  // 3,600,000 px fit the browser: nothing scaled.
  await expect(grid).not.toHaveAttribute('data-scaled', 'true');

  // Only a window of rows exists in the page, not 100,000.
  const rendered = await grid.getByRole('row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(120);

  // Keyboard to the end: the last job is there, and still only a window is rendered.
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('End');
  await expect(grid.locator(`[aria-rowindex="${ROWS + 1}"]`)).toContainText(`big.csv row ${ROWS + 1}`, { timeout: 15_000 });
  expect(await grid.getByRole('row').count()).toBeLessThan(120);
  await shot(page, 'batch-detail-100k-end', testInfo);

  await page.getByLabel('Search jobs').fill('your code is 100999.');
  await expect(page.getByText(/^1 job\b/)).toBeVisible({ timeout: 15_000 });
  await expect(grid.locator('[aria-rowindex="2"]')).toContainText(`big.csv row ${99_999 + 2}`);
});

/** What the grid shows: its scroll position and the rows inside the rows' viewport, top to bottom. */
interface GridView {
  scrollTop: number;
  maxScrollTop: number;
  scrollHeight: number;
  viewport: number;
  scaled: boolean;
  focused: number | null;
  rows: { index: number; top: number; text: string }[];
}

interface Win {
  document: { activeElement: El | null; querySelector(selector: string): El | null };
}

function gridView(page: Page): Promise<GridView> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as Win).document;
    const grid = d.querySelector('[role="grid"][aria-label="Jobs"]');
    const head = grid?.querySelector('.job-grid__head');
    if (!grid || !head) throw new Error('no job grid');
    const g = grid.getBoundingClientRect();
    const h = head.getBoundingClientRect();
    const viewTop = h.bottom;
    const viewBottom = g.top + 1 + grid.clientHeight; // 1 px border
    const rows = Array.from(grid.querySelectorAll('.job-grid__body [role="row"]'))
      .map((r) => ({
        index: Number(r.getAttribute('aria-rowindex')) - 2,
        top: r.getBoundingClientRect().top - viewTop,
        bottom: r.getBoundingClientRect().bottom,
        text: r.textContent ?? '',
      }))
      .filter((r) => r.bottom > viewTop + 1 && r.top + viewTop < viewBottom - 1)
      .sort((a, b) => a.top - b.top)
      .map(({ index, top, text }) => ({ index, top, text }));
    const focused = d.activeElement?.getAttribute('aria-rowindex');
    return {
      scrollTop: grid.scrollTop,
      maxScrollTop: grid.scrollHeight - grid.clientHeight,
      scrollHeight: grid.scrollHeight,
      viewport: viewBottom - viewTop,
      scaled: grid.getAttribute('data-scaled') === 'true',
      focused: focused ? Number(focused) - 2 : null,
      rows,
    };
  });
}

/** The rows shown are loaded, consecutive, one row height apart and each its own CSV row. */
function expectContinuous(view: GridView): void {
  expect(view.rows.length).toBeGreaterThan(5);
  view.rows.forEach((r, k) => {
    expect(r.text, `row ${r.index} loaded`).toContain(`big.csv row ${r.index + 2}`);
    if (k > 0) {
      const prev = view.rows[k - 1];
      expect(r.index).toBe((prev?.index ?? 0) + 1);
      expect(r.top - (prev?.top ?? 0)).toBeCloseTo(ROW_H, 0);
    }
  });
}

async function scrollGridTo(page: Page, top: number): Promise<void> {
  await page.evaluate((t) => {
    const grid = (globalThis as unknown as Win).document.querySelector('[role="grid"][aria-label="Jobs"]');
    if (grid) grid.scrollTop = t;
  }, top);
}

/** Waits until the rows at this scroll position are loaded and placed, then returns the view. */
async function settledView(page: Page): Promise<GridView> {
  let view = await gridView(page);
  await expect
    .poll(
      async () => {
        view = await gridView(page);
        return view.rows.length > 5 && view.rows.every((r) => r.text.includes(`big.csv row ${r.index + 2}`));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return view;
}

test('scaled scroll range (cap forced to 200,000 px): every row reachable, up to the last', async ({ host, page, work }, testInfo) => {
  test.setTimeout(180_000);
  const id = await bigBatch(host, work);

  await page.addInitScript((cap) => {
    (globalThis as unknown as { batchdeskMaxScrollHeight: number }).batchdeskMaxScrollHeight = cap;
  }, FORCED_CAP);
  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${id}`);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 30_000 });
  await expect(grid).toHaveAttribute('data-scaled', 'true');
  await expect(grid.getByRole('row').nth(1)).toContainText('big.csv row 2');

  const start = await settledView(page);
  // The sizer is capped: 200,000 px (and the header), not 3,600,000.
  expect(start.scrollHeight).toBeLessThan(FORCED_CAP + 100);
  expect(start.rows[0]?.index).toBe(0);
  expectContinuous(start);
  const scale = scrollScale(ROWS, ROW_H, start.viewport, FORCED_CAP);

  // End: the last row, wholly in view at the bottom.
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('End');
  await expect(grid.locator(`[aria-rowindex="${ROWS + 1}"]`)).toBeFocused();
  let view = await settledView(page);
  expect(view.rows.at(-1)?.index).toBe(ROWS - 1);
  expect((view.rows.at(-1)?.top ?? 0) + ROW_H).toBeLessThanOrEqual(view.viewport + 1);
  expect(view.scrollTop).toBeGreaterThanOrEqual(view.maxScrollTop - 1);
  expectContinuous(view);
  expect(await grid.getByRole('row').count()).toBeLessThan(120);
  await shot(page, 'batch-detail-scaled-end', testInfo);

  // Arrow and page keys move one row, one page, and the focused row stays in view.
  await page.keyboard.press('ArrowUp');
  await expect(grid.locator(`[aria-rowindex="${ROWS}"]`)).toBeFocused();
  await page.keyboard.press('PageUp');
  view = await settledView(page);
  expect(view.focused).not.toBeNull();
  expect(view.focused).toBeLessThan(ROWS - 2);
  expect(view.rows.map((r) => r.index)).toContain(view.focused);
  await page.keyboard.press('Home');
  await expect(grid.locator('[aria-rowindex="2"]')).toBeFocused();
  view = await settledView(page);
  expect(view.scrollTop).toBe(0);
  expect(view.rows[0]?.index).toBe(0);
  for (let k = 0; k < 25; k++) await page.keyboard.press('ArrowDown');
  await expect(grid.locator('[aria-rowindex="27"]')).toBeFocused();
  view = await settledView(page);
  expect((view.rows.find((r) => r.index === 25)?.top ?? -1) + ROW_H).toBeLessThanOrEqual(view.viewport + 1);
  expectContinuous(view);
  await page.keyboard.press('PageDown');
  view = await settledView(page);
  expect(view.focused).toBeGreaterThan(25);
  expect(view.rows.map((r) => r.index)).toContain(view.focused);

  // Any scroll position shows the rows it maps to, in order: a whole physical pixel is half a row
  // here, so no row is skipped; the rows under the scrollTop only ever move down.
  let prevTop = -1;
  for (const fraction of [0.001, 0.1, 0.25, 0.5, 0.61803, 0.9, 0.999, 0.99999]) {
    const top = Math.round(fraction * start.maxScrollTop);
    await scrollGridTo(page, top);
    const expected = rowAtTop(scale, ROW_H, top);
    // Rows are placed from the scroll event and re-rendered in the next frame: wait for that
    // frame (a loaded but not yet moved window has the right text for the old position).
    await expect
      .poll(
        async () => {
          view = await settledView(page);
          return view.rows[0]?.index === expected || view.rows[0]?.index === expected + 1;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(view.scrollTop).toBe(top);
    expect(
      view.rows[0]?.index === expected || view.rows[0]?.index === expected + 1,
      `row ${view.rows[0]?.index} at scrollTop ${top}, expected ${expected}`,
    ).toBe(true);
    expect(view.rows[0]?.index ?? 0).toBeGreaterThan(prevTop);
    prevTop = view.rows[0]?.index ?? 0;
    expectContinuous(view);
  }
  // One physical pixel at a time over a stretch: the top row never goes back, never jumps a row.
  const from = toPhysical(scale, 54_321 * ROW_H);
  let prevRow = -1;
  for (let p = Math.round(from); p < Math.round(from) + 12; p++) {
    await scrollGridTo(page, p);
    view = await settledView(page);
    const row = view.rows[0]?.index ?? 0;
    if (prevRow >= 0) expect(row - prevRow).toBeGreaterThanOrEqual(0);
    if (prevRow >= 0) expect(row - prevRow).toBeLessThanOrEqual(1);
    prevRow = row;
  }

  // Dragging the scrollbar (headless Chromium draws none to grab): the scrollTop swept across the
  // whole range one frame at a time, as a thumb drag sets it, down to the end and back to the top.
  const sweep = async (to: number): Promise<void> => {
    await page.evaluate(
      ([target, steps]) =>
        new Promise<void>((resolve) => {
          const g = globalThis as unknown as Win & { requestAnimationFrame(cb: () => void): number };
          const grid = g.document.querySelector('[role="grid"][aria-label="Jobs"]');
          if (!grid) throw new Error('no job grid');
          const from = grid.scrollTop;
          let k = 0;
          const step = (): void => {
            k++;
            grid.scrollTop = from + ((target - from) * k) / steps;
            if (k < steps) g.requestAnimationFrame(step);
            else resolve();
          };
          g.requestAnimationFrame(step);
        }),
      [to, 40] as const,
    );
  };
  await sweep(start.maxScrollTop + 500);
  view = await settledView(page);
  expect(view.scrollTop).toBeGreaterThanOrEqual(view.maxScrollTop - 1);
  expect(view.rows.at(-1)?.index).toBe(ROWS - 1);
  expect((view.rows.at(-1)?.top ?? 0) + ROW_H).toBeLessThanOrEqual(view.viewport + 1);
  expectContinuous(view);
  await sweep(0);
  view = await settledView(page);
  expect(view.scrollTop).toBe(0);
  expect(view.rows[0]?.index).toBe(0);

  // Clicking a row opens it (and highlights it) wherever it is.
  await scrollGridTo(page, Math.round(0.75 * start.maxScrollTop));
  view = await settledView(page);
  const target = view.rows[3];
  if (!target) throw new Error('no row to click');
  await grid.locator(`[aria-rowindex="${target.index + 2}"]`).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  await expect(grid.locator(`[aria-rowindex="${target.index + 2}"]`)).toHaveClass(/job-grid__row--open/);
  await page.keyboard.press('Escape');

  // Search still narrows the set (back under the cap: nothing scaled).
  await page.getByLabel('Search jobs').fill('your code is 100999.');
  await expect(page.getByText(/^1 job\b/)).toBeVisible({ timeout: 15_000 });
  await expect(grid.locator('[aria-rowindex="2"]')).toContainText(`big.csv row ${99_999 + 2}`);
  await expect(grid).not.toHaveAttribute('data-scaled', 'true');
});

test('1,000,000 rows under the real cap: End, the scroll end and any position reach their rows', async ({ host, page, work }) => {
  test.setTimeout(240_000);
  const MILLION = 1_000_000;
  const t0 = Date.now();
  const id = await bigBatch(host, work, MILLION);
  console.log(`1,000,000-row batch created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  await openApp(page, host);
  await page.goto(`${host.url}/#/batches/${id}`);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid).toHaveAttribute('aria-rowcount', String(MILLION + 1), { timeout: 30_000 });
  await expect(grid).toHaveAttribute('data-scaled', 'true');
  const start = await settledView(page);
  const scale = scrollScale(MILLION, ROW_H, start.viewport);
  // A plain list would stop near row 932,080; End shows row 1,000,000.
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('End');
  await expect(grid.locator(`[aria-rowindex="${MILLION + 1}"]`)).toBeFocused();
  let view = await settledView(page);
  expect(view.rows.at(-1)?.index).toBe(MILLION - 1);
  expectContinuous(view);
  await scrollGridTo(page, 0);
  await settledView(page);
  await scrollGridTo(page, start.maxScrollTop);
  view = await settledView(page);
  expect(view.rows.at(-1)?.index).toBe(MILLION - 1);
  for (const fraction of [0.25, 0.932, 0.999]) {
    const top = Math.round(fraction * start.maxScrollTop);
    await scrollGridTo(page, top);
    view = await settledView(page);
    const expected = rowAtTop(scale, ROW_H, top);
    expect([expected, expected + 1]).toContain(view.rows[0]?.index);
    expectContinuous(view);
  }
  console.log(`1,000,000-row test done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});
