// End-to-end tests of the window in Debian's Chromium, against the browser host (`npm run web`)
// running the real engine and a real sandbox API. Each test starts its own sandbox and host as
// child processes (test/e2e/fixtures.ts) with fresh data folders, so no webServer block here.
// Run: npx electron-vite build && node scripts/with-keyring.mjs playwright test
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: /.*\.spec\.ts$/,
  outputDir: 'test-results',
  // Two cores: one browser, one host and one sandbox at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // 51 walkthroughs take about 10 minutes on two quiet cores; a loaded machine needs headroom
  // (the CI job's limit is 90 minutes in all).
  globalTimeout: 25 * 60_000,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    acceptDownloads: true,
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
