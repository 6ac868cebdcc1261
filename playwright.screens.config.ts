// `npm run screens`: every screen of the window, light and dark, English and German, written to
// docs/screens/ (the README links its index). Not a test run: nothing here is in `npm test`.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: 'test/screens',
  testMatch: /.*\.shot\.ts$/,
  outputDir: 'test-results/screens',
  globalTimeout: 15 * 60_000,
});
