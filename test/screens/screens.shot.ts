// Screenshots of every screen at 1280x800, light and dark, English (en-GB) and German (de-DE),
// into docs/screens/<language>-<scheme>/<screen>.png, with docs/screens/README.md listing them.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../e2e/fixtures';
import { makeShowcase, screenRoutes } from '../e2e/helpers/showcase';

const OUT = join(process.cwd(), 'docs', 'screens');
const LANGUAGES = [
  { dir: 'en', locale: 'en-GB', names: { ocr: 'October invoices', calls: 'Support calls week 42', messages: 'Shipping notices', paused: 'Held back notices' } },
  {
    dir: 'de',
    locale: 'de-DE',
    names: { ocr: 'Rechnungen Oktober', calls: 'Supportanrufe KW 42', messages: 'Versandhinweise', paused: 'Zurückgehaltene Hinweise' },
  },
] as const;
const SCHEMES = ['light', 'dark'] as const;

test('screenshots of every screen, light and dark, English and German', async ({ launch, browser, work }) => {
  test.setTimeout(12 * 60_000);
  rmSync(OUT, { recursive: true, force: true });
  const index: string[] = ['# The window, screen by screen', '', 'Made by `npm run screens` (1280x800, the embedded sandbox). Do not edit: run it again.', ''];
  for (const language of LANGUAGES) {
    // One host per language: the batch names are the user's words, in the user's language.
    const host = await launch({ apiUrl: null, dataDir: join(work, `data-${language.dir}`) });
    const showcase = await makeShowcase(host, language.names);
    const routes = screenRoutes(showcase);
    for (const scheme of SCHEMES) {
      const folder = `${language.dir}-${scheme}`;
      mkdirSync(join(OUT, folder), { recursive: true });
      const context = await browser.newContext({
        locale: language.locale,
        colorScheme: scheme,
        viewport: { width: 1280, height: 800 },
        timezoneId: 'Europe/Berlin',
      });
      const page = await context.newPage();
      await page.goto(host.openUrl);
      await expect(page.getByRole('navigation').first()).toBeVisible();
      index.push(`## ${language.dir === 'en' ? 'English' : 'German'}, ${scheme}`, '');
      for (const route of routes) {
        await page.evaluate((h) => {
          (globalThis as unknown as { location: { hash: string } }).location.hash = h;
        }, route.hash);
        await expect(page.locator(route.ready).first()).toBeVisible();
        // Let live updates and fonts settle before the picture.
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(OUT, folder, `${route.name}.png`), animations: 'disabled', caret: 'hide' });
        index.push(`![${route.name}](${folder}/${route.name}.png)`, '');
        if (route.name.startsWith('job-')) {
          // Closing the dialog sets the batch's own hash: wait for it, or it overwrites the next route's.
          await page.keyboard.press('Escape');
          await expect(page.locator('dialog[open]')).toHaveCount(0);
          await page.waitForFunction(() => !(globalThis as unknown as { location: { hash: string } }).location.hash.includes('/jobs/'));
        }
      }
      await context.close();
    }
  }
  writeFileSync(join(OUT, 'README.md'), `${index.join('\n')}\n`);
});
