// The main flow without a mouse: Tab and Enter to New batch, arrow keys to pick what to run, the
// drop zone focusable (Enter opens the file picker), Start, a job opened from the table and
// closed with Escape, then on to Keys & rates.
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, INVOICES } from './fixtures';
import type { PageWindow } from './helpers/page-globals';

interface Focused {
  tag: string;
  role: string | null;
  name: string;
  inNav: boolean;
  outline: string;
}

async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const { document, CSS, getComputedStyle } = globalThis as unknown as PageWindow;
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'body', role: null, name: '', inNav: false, outline: 'none' };
    const labelledBy = el.getAttribute('aria-labelledby');
    const byId = labelledBy ? document.getElementById(labelledBy.split(' ')[0] ?? '')?.textContent : null;
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
    const name = (el.getAttribute('aria-label') ?? byId ?? label ?? el.closest('label')?.textContent ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
    const style = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name,
      inNav: el.closest('nav') !== null,
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element matches; fails after `max` presses. */
async function tabTo(page: Page, want: (f: Focused) => boolean, what: string, opts: { back?: boolean; max?: number } = {}): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < (opts.max ?? 60); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    if (want(f)) return f;
    seen.push(`${f.tag}${f.role ? `[${f.role}]` : ''} "${f.name.slice(0, 40)}"`);
  }
  throw new Error(`could not reach ${what} with ${opts.back ? 'Shift+Tab' : 'Tab'}; focus went through:\n  ${seen.join('\n  ')}`);
}

const visibleFocus = (f: Focused): boolean => !f.outline.startsWith('none') && !f.outline.endsWith(' 0px');

test('keyboard only: New batch, pick, drop zone, start, open a job, Keys', async ({ host, page }) => {
  await openApp(page, host);
  await expect(page.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();

  // Tab to "New batch" in the navigation, Enter.
  const navNew = await tabTo(page, (f) => f.inNav && f.name === 'New batch', 'the New batch link');
  expect(visibleFocus(navNew)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/new$/);
  // The screen announces itself: focus moves to its heading.
  await expect(page.getByRole('heading', { level: 1, name: 'New batch' })).toBeFocused();

  // What to run: a radio group, moved with the arrow keys.
  await tabTo(page, (f) => f.tag === 'input' && f.name.startsWith('OCR invoices'), 'the capability radios');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: /^Transcribe recordings/ })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: /^OCR invoices/ })).toBeChecked();

  // The drop zone is focusable, shows focus, and Enter opens the file picker.
  const zone = await tabTo(page, (f) => f.name === 'Drop files or folders here', 'the drop zone');
  expect(zone.role).toBe('button');
  expect(visibleFocus(zone), `focus ring on the drop zone: ${zone.outline}`).toBe(true);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(INVOICES);
  await expect(page.getByRole('region', { name: 'Estimate' }).locator('dd.preview__cost')).toHaveText('€0.05');

  // Start batch, by keyboard.
  await tabTo(page, (f) => f.tag === 'button' && f.name === 'Start batch', 'Start batch');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });

  // Into the job table: a row takes focus, Enter opens the job, Escape closes it.
  await tabTo(page, (f) => f.role === 'row', 'a job row');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  await expect(dialog.getByRole('heading', { name: /^Job 2/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);

  // Back up to the navigation and on to Keys & rates.
  await tabTo(page, (f) => f.inNav && f.name === 'Keys & rates', 'the Keys & rates link', { back: true, max: 80 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Keys & rates' })).toBeFocused();
  // The add-key form is reachable: the secret field takes focus.
  const secret = await tabTo(page, (f) => f.tag === 'input' && f.name === 'Secret key', 'the secret key field', { max: 80 });
  expect(visibleFocus(secret)).toBe(true);
});

test('keyboard only: the first Tab shows "Skip to main content", which moves focus past the navigation', async ({ host, page }) => {
  await openApp(page, host);
  await goTo(page, 'New batch');
  await expect(page.getByRole('heading', { level: 1, name: 'New batch' })).toBeFocused();
  // From the very top of the page, as after loading it.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'New batch' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = await focused(page);
  expect(skip.name).toBe('Skip to main content');
  expect(visibleFocus(skip), `focus ring on the skip link: ${skip.outline}`).toBe(true);
  // Shown while it has focus (it waits off screen otherwise).
  const box = await page.getByRole('button', { name: 'Skip to main content' }).boundingBox();
  expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New batch' })).toBeFocused();
  // The next Tab lands in the screen, not back in the header or the navigation.
  const next = await tabTo(page, (f) => f.tag !== 'body', 'the first control of the screen', { max: 1 });
  expect(next.inNav).toBe(false);
  expect(next.name).not.toBe('Search all results');
  expect(visibleFocus(next), `focus ring on ${next.name}: ${next.outline}`).toBe(true);
});
