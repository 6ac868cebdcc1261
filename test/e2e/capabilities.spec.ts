// The five capabilities added beside transcription, OCR and messages, in the window as a user
// does it: New batch, choose the capability, drop a CSV or TXT file, set its option, read the
// estimate, start, watch it finish, open a job and see its result beside its input.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, openApp, goTo, dropFiles, shot } from './fixtures';

interface Case {
  radio: RegExp;
  file: string;
  content: string;
  items: number;
  units: string;
  setOptions?: (page: Page) => Promise<void>;
  /** Checks the job dialog's result region. */
  result: (page: Page) => Promise<void>;
  name: string;
}

const region = (page: Page, name: 'Source' | 'Result') => page.getByRole('dialog').getByRole('region', { name });

const CASES: Case[] = [
  {
    name: 'tts',
    radio: /^Text to speech/,
    file: 'lines.csv',
    content: 'text,name\nYour parcel has arrived.,arrival\nThank you for calling.,thanks\n',
    items: 2,
    units: '46 characters',
    setOptions: async (page) => page.getByLabel('Voice (optional)').fill('nova'),
    result: async (page) => {
      const audio = region(page, 'Result').locator('audio');
      await expect(audio).toBeVisible();
      await expect(region(page, 'Result')).toContainText('arrival.wav');
      await expect(region(page, 'Result')).toContainText('voice nova');
      await expect.poll(() => audio.evaluate((el) => (el as unknown as { duration: number }).duration)).toBeGreaterThan(0.5);
    },
  },
  {
    name: 'text',
    radio: /^Summarise, reply, classify/,
    file: 'tickets.txt',
    content: 'My refund has not arrived yet.\nWhere is my parcel? The delivery is late.\n',
    items: 2,
    units: '71 characters',
    setOptions: async (page) => {
      await page.getByLabel('Task', { exact: true }).selectOption('classify');
      await page.getByLabel('Labels', { exact: true }).fill('Refunds, Delivery, Other');
    },
    result: async (page) => {
      await expect(region(page, 'Result')).toContainText('Label: Refunds');
      await expect(region(page, 'Source')).toContainText('My refund has not arrived yet.');
    },
  },
  {
    name: 'image',
    radio: /^Generate images/,
    file: 'prompts.txt',
    content: 'a red bicycle\na lighthouse at dusk\n',
    items: 2,
    units: '2 images',
    setOptions: async (page) => page.getByLabel('Size (optional)').fill('128x96'),
    result: async (page) => {
      const img = region(page, 'Result').getByRole('img', { name: 'Generated image line-1.png' });
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(128);
    },
  },
  {
    name: 'embeddings',
    radio: /^Embed for search/,
    file: 'notes.txt',
    content: 'alpha\nbeta\ngamma\n',
    items: 3,
    units: '14 characters',
    result: async (page) => {
      await expect(region(page, 'Result')).toContainText('A vector of 64 dimensions is stored');
      await expect(region(page, 'Source')).toContainText('alpha');
    },
  },
  {
    name: 'crm',
    radio: /^Write to the CRM/,
    file: 'contacts.csv',
    content: 'name,email\nAda Lovelace,ada@example.com\nAlan Turing,alan@example.com\n',
    items: 2,
    units: '2 records',
    setOptions: async (page) => {
      await page.getByLabel('Record', { exact: true }).selectOption('contact');
    },
    result: async (page) => {
      await expect(region(page, 'Result')).toContainText('contact');
      await expect(region(page, 'Result').locator('dd.mono')).toHaveText(/\S+/);
      await expect(region(page, 'Source')).toContainText('ada@example.com');
    },
  },
];

for (const c of CASES) {
  test(`${c.name}: New batch, estimate, start, finish, result beside its input`, async ({ host, page, work }, testInfo) => {
    const path = join(work, c.file);
    writeFileSync(path, c.content);
    await openApp(page, host);
    await goTo(page, 'New batch');
    await page.getByRole('radio', { name: c.radio }).check();
    await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [path]);
    await c.setOptions?.(page);
    const estimate = page.getByRole('region', { name: 'Estimate' });
    const figure = (term: string) => estimate.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
    await expect(figure('Items')).toHaveText(String(c.items));
    await expect(figure('Units')).toHaveText(c.units);
    await shot(page, `new-batch-${c.name}`, testInfo);

    await page.getByRole('button', { name: 'Start batch' }).click();
    await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
    const card = page.getByRole('article').first();
    await expect(card.locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect(grid.getByRole('row').filter({ hasText: 'Succeeded' })).toHaveCount(c.items);
    await grid.getByRole('row').nth(1).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await c.result(page);
    await shot(page, `job-detail-${c.name}`, testInfo);
  });
}
