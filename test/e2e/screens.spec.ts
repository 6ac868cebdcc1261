// Every screen, at 1280x800 and 1920x1080, light and dark: a screenshot of each kept in
// test-results/screenshots/ (and looked at), and an axe check of each in both themes that fails
// on any serious or critical violation. Runs on the embedded sandbox (no --api-url), the
// first-run default, so the "Sandbox" badge must be visible.
import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, dropFiles, INVOICES, RECORDINGS, SAMPLES, shot } from './fixtures';
import type { PageWindow } from './helpers/page-globals';
import { createBatch, rpc, waitForBatch, type Host } from './helpers/processes';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** A PNG of the PDF viewer frame larger than this shows a drawn page (an empty viewer is ~2 KB). */
const PDF_DRAWN_BYTES = 12_000;

interface Screen {
  name: string;
  /** Brings the screen up from wherever the page is (without reloading: the New batch draft lives in the page). */
  show(page: Page): Promise<void>;
}

async function jobIdOf(host: Host, batchId: string, search: string): Promise<number> {
  const r = await rpc<{ rows: { id: number }[] }>(host, 'jobs.list', { batchId, offset: 0, limit: 10, search });
  const id = r.rows[0]?.id;
  if (id === undefined) throw new Error(`no job matching "${search}" in ${batchId}`);
  return id;
}

async function setHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as PageWindow).location.hash = h;
  }, hash);
}

/**
 * The shell is one screen high and only its main region scrolls: the window itself must not
 * scroll (it would reveal blank space below the shell) nor need a horizontal scrollbar.
 */
async function windowOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const { document, innerHeight, innerWidth, getComputedStyle } = globalThis as unknown as PageWindow;
    const doc = document.scrollingElement ?? document.documentElement;
    const tall = doc.scrollHeight > innerHeight + 1;
    const wide = doc.scrollWidth > innerWidth + 1;
    if (!tall && !wide) return null;
    const culprits = Array.from(document.querySelectorAll('body *'))
      .filter((el) => {
        const b = el.getBoundingClientRect();
        return (tall && b.bottom > innerHeight + 1) || (wide && b.right > innerWidth + 1);
      })
      .filter((el) => !el.closest('.shell__main') || getComputedStyle(el).position === 'absolute' || getComputedStyle(el).position === 'fixed')
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).replace(/\s+/g, '.')} "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    return `the window scrolls: document ${doc.scrollWidth}x${doc.scrollHeight} in a ${innerWidth}x${innerHeight} viewport; sticking out: ${culprits.join(', ')}`;
  });
}

const seriousOrCritical = (impact: string | null | undefined): boolean => impact === 'serious' || impact === 'critical';

test('every screen: screenshots at two sizes in light and dark, and no serious axe violations', async ({ launch, page }, testInfo) => {
  test.setTimeout(150_000);
  const host = await launch({ apiUrl: null });

  // Three finished batches (OCR, transcription, messages) and one paused, created as the window does.
  const ocr = await createBatch(host, 'ocr', INVOICES, { name: 'October invoices' });
  const calls = await createBatch(host, 'transcribe', RECORDINGS, { name: 'Support calls week 42' });
  const messages = await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: 'Shipping notices', channel: 'whatsapp' });
  for (const id of [ocr, calls, messages]) await waitForBatch(host, id);
  // Paused by its budget (0.03 EUR) after two calls, before the third: a pause asked for after the
  // start raced its calls.
  await createBatch(host, 'channel', [join(SAMPLES, 'messages.csv')], { name: 'Held back notices', channel: 'voice', budget: 300 });
  const ocrJob = await jobIdOf(host, ocr, 'INV-2026-0012');
  const callJob = await jobIdOf(host, calls, 'call-001');
  const messageJob = await jobIdOf(host, messages, 'Olivia');

  await openApp(page, host);
  // The embedded sandbox is in use: the window says so, visibly.
  await expect(page.getByRole('banner').getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Embedded sandbox API');

  // New batch with a preview: the draft stays while other screens are visited.
  await goTo(page, 'New batch');
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  // The same invoices were processed above: left out and named, unless the user ticks the resend box.
  const estimate = page.getByRole('region', { name: 'Estimate' });
  await expect(estimate).toContainText('already in batch “October invoices”');
  const resend = estimate.getByRole('checkbox', { name: /Include items already sent or queued \(4 left out/ });
  await expect(resend).toBeVisible();
  await resend.check();
  await expect(estimate.locator('dd.preview__cost')).toHaveText('€0.05');

  const dialog = page.getByRole('dialog');
  const screens: Screen[] = [
    {
      name: 'batches',
      async show(p) {
        await goTo(p, 'Batches');
        await expect(p.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
        const table = p.getByRole('table', { name: 'Batches' });
        await expect(table.locator('tbody tr.batch-table__row')).toHaveCount(4);
        // The paused batch stays a row, its reason one line under it (no card opened).
        await expect(p.getByRole('article')).toHaveCount(0);
        await expect(table.locator('tbody tr.batch-table__row').filter({ hasText: 'Held back notices' }).locator('.status-pill').first()).toHaveText('Paused');
      },
    },
    {
      name: 'new-batch-preview',
      async show(p) {
        await goTo(p, 'New batch');
        await expect(p.getByRole('region', { name: 'Estimate' }).locator('dd.preview__cost')).toHaveText('€0.05');
      },
    },
    {
      name: 'batch-detail-ocr',
      async show(p) {
        await setHash(p, `#/batches/${ocr}`);
        await expect(p.getByRole('heading', { level: 1, name: 'October invoices' })).toBeVisible();
        await expect(p.getByRole('grid', { name: 'Jobs' }).getByRole('row')).toHaveCount(5);
      },
    },
    {
      name: 'job-ocr',
      async show(p) {
        await setHash(p, `#/batches/${ocr}/jobs/${ocrJob}`);
        await expect(dialog.getByRole('table', { name: 'Extracted fields' })).toContainText('INV-2026-0012');
        const pdf = dialog.locator('iframe[title^="Invoice"]');
        await expect(pdf).toBeVisible();
        // Wait until Chromium's PDF viewer has drawn the page: an empty viewer is one flat colour
        // and compresses to a tiny PNG; a rendered invoice does not.
        await expect.poll(async () => (await pdf.screenshot()).length, { timeout: 15_000 }).toBeGreaterThan(PDF_DRAWN_BYTES);
      },
    },
    {
      name: 'job-transcription',
      async show(p) {
        await setHash(p, `#/batches/${calls}/jobs/${callJob}`);
        const audio = dialog.locator('audio');
        await expect(audio).toBeVisible();
        await expect(audio).toHaveAttribute('controls', '');
        await expect(dialog).toContainText('charged twice for October');
        // The player has the recording: its metadata loads from the host (5.4 s).
        await expect.poll(() => audio.evaluate((a) => Math.round((a as unknown as { duration: number }).duration * 10) / 10), { timeout: 10_000 }).toBe(5.4);
      },
    },
    {
      name: 'job-message',
      async show(p) {
        await setHash(p, `#/batches/${messages}/jobs/${messageJob}`);
        await expect(dialog.getByRole('region', { name: 'Source' })).toContainText('+442079460123');
        await expect(dialog.getByRole('region', { name: 'Source' })).toContainText('Hi Olivia, your order A-10231 has shipped');
        await expect(dialog.getByRole('region', { name: 'Result' })).toContainText('Message id');
      },
    },
    {
      name: 'keys',
      async show(p) {
        await setHash(p, '#/keys');
        await expect(p.getByRole('heading', { level: 1, name: 'Keys & rates' })).toBeVisible();
        await expect(p.getByRole('region', { name: 'Connection' })).toContainText('Embedded sandbox');
      },
    },
    {
      name: 'costs',
      async show(p) {
        await goTo(p, 'Costs');
        await expect(p.getByRole('heading', { level: 1, name: 'Costs' })).toBeVisible();
        await expect(p.getByRole('region', { name: 'By batch' })).toContainText('October invoices');
      },
    },
  ];

  const violations: string[] = [];
  const layout: string[] = [];
  const notes: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const screen of screens) {
        await test.step(`${screen.name} ${viewport.width}x${viewport.height} ${scheme}`, async () => {
          await screen.show(page);
          await shot(page, `${screen.name}-${viewport.width}x${viewport.height}-${scheme}`, testInfo);
          const overflow = await windowOverflow(page);
          if (overflow) layout.push(`${screen.name} ${viewport.width}x${viewport.height} ${scheme}: ${overflow}`);
          // Accessibility: once per screen and theme (the sizes do not change the markup).
          if (viewport.width !== 1280) return;
          const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
          // axe really looked at the screen (a failed injection would report nothing at all).
          expect(results.passes.length, `axe checks that passed on ${screen.name}`).toBeGreaterThan(10);
          for (const v of results.violations.filter((x) => !seriousOrCritical(x.impact)))
            notes.push(`${screen.name} (${scheme}): [${v.impact}] ${v.id} x${v.nodes.length}`);
          for (const v of results.violations.filter((x) => seriousOrCritical(x.impact))) {
            const line = `${screen.name} (${scheme}): [${v.impact}] ${v.id}: ${v.help}\n${v.nodes
              .slice(0, 8)
              .map((n) => `    ${n.target.join(' ')} :: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
              .join('\n')}`;
            violations.push(line);
          }
        });
        if (screen.name.startsWith('job-')) {
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
          // Closing goes back to the batch (#/batches/<id>): wait for it before the next screen.
          await expect(page).not.toHaveURL(/\/jobs\/\d+$/);
        }
      }
    }
  }
  if (notes.length > 0) console.log(`axe (moderate/minor, not failing):\n${notes.join('\n')}`);
  if (violations.length > 0) {
    console.log(`axe: ${violations.length} serious or critical violation(s):\n${violations.join('\n')}`);
    await testInfo.attach('axe-violations.txt', { body: violations.join('\n'), contentType: 'text/plain' });
  }
  if (layout.length > 0) console.log(`layout: ${layout.length} screen(s) where the window itself scrolls:\n${layout.join('\n')}`);
  expect.soft(layout, 'screens where the window itself scrolls').toEqual([]);
  expect(violations, 'serious or critical axe violations').toEqual([]);
});
