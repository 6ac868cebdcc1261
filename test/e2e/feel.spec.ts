// The window's feel (issue 42, point 6): a finished action says so in a toast that goes by itself
// (and closes with Escape), an image batch's rows show thumbnails that really loaded, the keyboard
// reaches Start on New batch with a visible focus ring, and axe finds nothing on the screens that
// changed, in light and dark.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, dropFiles, shot, INVOICES } from './fixtures';
import type { PageWindow } from './helpers/page-globals';

/** No axe violations at all on the screen as it is now, in light and in dark. */
async function noAxeViolations(page: Page, what: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.passes.length, `axe looked at ${what}`).toBeGreaterThan(10);
    expect(
      axe.violations.map((v) => `${v.id} (${v.impact ?? '?'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${what} (${scheme})`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The tag, accessible-ish name and outline of the focused element. */
async function focusedNow(page: Page): Promise<{ name: string; tag: string; outline: string }> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageWindow;
    const el = document.activeElement;
    if (!el || el === document.body) return { name: '', tag: 'body', outline: 'none' };
    const style = getComputedStyle(el);
    const name = (el.getAttribute('aria-label') ?? el.closest('label')?.textContent ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
    return { name, tag: el.tagName.toLowerCase(), outline: `${style.outlineStyle} ${style.outlineWidth}` };
  });
}

test('a finished action shows a toast that goes by itself; another closes with Escape', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await expect(page.getByRole('region', { name: 'Estimate' }).locator('dd.preview__cost')).toHaveText('€0.05');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);

  // The toast outlives the screen change and says which batch started, politely.
  const started = page.getByRole('status').filter({ hasText: /^Batch “.+” started\.$/ });
  await expect(started).toBeVisible();
  await expect(started).toHaveAttribute('aria-atomic', 'true');
  await expect(page.getByTestId('toast').locator('..')).toHaveAttribute('aria-live', 'polite');
  // Bottom right, over the content (not in the narrow navigation column), a line or two high.
  const toastBox = await started.boundingBox();
  const navBox = await page.locator('.shell__nav').boundingBox();
  const viewport = page.viewportSize();
  expect(toastBox && navBox && viewport).toBeTruthy();
  if (toastBox && navBox && viewport) {
    expect(toastBox.x).toBeGreaterThan(navBox.x + navBox.width);
    expect(toastBox.x + toastBox.width).toBeGreaterThan(viewport.width - 40);
    expect(toastBox.y + toastBox.height).toBeGreaterThan(viewport.height - 40);
    expect(toastBox.height).toBeLessThan(80);
  }
  await shot(page, 'feel-toast', testInfo);
  // Nothing holds it (no pointer, no focus on it): it goes by itself.
  await page.mouse.move(5, 5);
  await expect(started).toBeHidden({ timeout: 20_000 });

  // Export: the toast names the file; focus on it keeps it, Escape closes it.
  const card = page.getByRole('article').first();
  await expect(card.locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  await card.getByRole('button', { name: 'Export' }).click();
  const exported = page.getByRole('status').filter({ hasText: /^Export saved as .+\.csv\.$/ });
  await expect(exported).toBeVisible();
  // The file name on one or two lines, cut in the middle when long (whole in its tooltip).
  expect((await exported.boundingBox())?.height ?? 200).toBeLessThan(80);
  await exported.getByRole('button', { name: 'Dismiss' }).focus();
  await expect(exported.getByRole('button', { name: 'Dismiss' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(exported).toBeHidden();
  // A failed action is not a toast: it stays an alert beside its control (the toast stack is empty).
  await expect(page.getByTestId('toast')).toHaveCount(0);
});

test('an image batch shows loaded thumbnails in its rows and a preview in the job dialog', async ({ host, page, work }, testInfo) => {
  const prompts = join(work, 'prompts.txt');
  writeFileSync(prompts, 'a red bicycle\na lighthouse at dusk\n');
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^Generate images/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [prompts]);
  await page.getByLabel('Size (optional)').fill('128x96');
  await expect(
    page
      .getByRole('region', { name: 'Estimate' })
      .locator('dt', { hasText: /^Items$/ })
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText('2');
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  const grid = page.getByRole('grid', { name: 'Jobs' });
  const rows = grid.getByRole('row').filter({ hasText: 'Succeeded' });
  await expect(rows).toHaveCount(2);
  const thumb = rows.first().getByRole('img', { name: /^Generated image for / });
  await expect(thumb).toBeVisible();
  await expect(thumb).toHaveAttribute('loading', 'lazy');
  // Sized before it loads: the row does not move when the picture arrives.
  await expect(thumb).toHaveAttribute('width', '28');
  await expect(thumb).toHaveAttribute('height', '28');
  await expect.poll(() => thumb.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await shot(page, 'feel-thumbnails', testInfo);
  await noAxeViolations(page, 'the image batch page');

  await rows.first().click();
  const preview = page
    .getByRole('dialog')
    .getByRole('region', { name: 'Result' })
    .getByRole('img', { name: /^Generated image / });
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('width', '128');
  await expect(preview).toHaveAttribute('height', '96');
  await expect.poll(() => preview.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(128);
});

test('an OCR batch of scans shows each picture scan as a thumbnail', async ({ host, page }) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  const grid = page.getByRole('grid', { name: 'Jobs' });
  // One of the four invoices is a PNG scan; the PDFs have no thumbnail.
  const scan = grid.getByRole('img', { name: 'Scanned file invoice-marlowe-INV-2026-0088.png' });
  await expect(scan).toBeVisible();
  await expect.poll(() => scan.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await expect(grid.getByRole('img')).toHaveCount(1);
});

test('from the top of New batch, Tab goes capability, drop zone, then Start, each with a visible ring', async ({ host, page }, testInfo) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await expect(page.getByRole('button', { name: 'Start batch' })).toBeEnabled();
  await shot(page, 'feel-new-batch-icons', testInfo);
  await noAxeViolations(page, 'New batch with files');

  // From the top of the screen (its heading, where the screen puts focus when it opens), on in order.
  const heading = page.getByRole('heading', { level: 1, name: 'New batch' });
  await heading.focus();
  await expect(heading).toBeFocused();
  const order: string[] = [];
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    const f = await focusedNow(page);
    const label =
      f.tag === 'input' && /^OCR invoices/.test(f.name)
        ? 'capability'
        : f.name === 'Drop files or folders here'
          ? 'drop zone'
          : f.name === 'Start batch'
            ? 'start'
            : null;
    if (label !== null) {
      expect(f.outline.startsWith('none') || f.outline.endsWith(' 0px'), `a visible focus ring on the ${label}: ${f.outline}`).toBe(false);
      if (!order.includes(label)) order.push(label);
    }
    if (label === 'start') break;
  }
  expect(order).toEqual(['capability', 'drop zone', 'start']);
});

test('the Batches list and navigation carry icons beside their words, without axe violations', async ({ host, page }) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: /^OCR invoices/ }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), INVOICES);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  await goTo(page, 'Batches');
  const row = page.getByRole('row').filter({ hasText: 'Done' }).first();
  // The icons are decorative: hidden from assistive technology, the words carry the meaning.
  await expect(row.locator('.status-pill svg[aria-hidden="true"]')).toHaveCount(1);
  await expect(row.locator('.status-pill')).toHaveText('Done');
  await expect(page.getByRole('navigation', { name: 'Main' }).locator('svg[aria-hidden="true"]')).toHaveCount(5);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches', exact: true })).toBeVisible();
  await noAxeViolations(page, 'Batches');
});
