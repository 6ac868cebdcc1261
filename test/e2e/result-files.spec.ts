// "Download results (.zip)" in the browser host: after a text-to-speech batch finishes, the batch
// detail offers its items' own files as one zip; the download is a real zip (read back with yauzl)
// holding each answer under its row's name, byte for byte as saved. Capabilities without files
// per item (embeddings) do not show the button.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readZip as unzip } from '../helpers/zip';
import { test, expect, openApp, goTo, dropFiles, shot } from './fixtures';

async function runBatch(page: Page, radio: RegExp, path: string): Promise<string> {
  await goTo(page, 'New batch');
  await page.getByRole('radio', { name: radio }).check();
  await dropFiles(page, page.getByRole('button', { name: 'Drop files or folders here' }), [path]);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await expect(page).toHaveURL(/#\/batches\/[^/]+$/);
  await expect(page.getByRole('article').first().locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
  return /#\/batches\/([^/]+)$/.exec(page.url())?.[1] ?? '';
}

test('Download results (.zip): every answer under its row name, as saved', async ({ host, page, work }, testInfo) => {
  const csv = join(work, 'lines.csv');
  writeFileSync(csv, 'text,name\nYour parcel has arrived.,arrival\nThank you for calling.,thanks\nGoodbye!,\n');
  await openApp(page, host);
  const id = await runBatch(page, /^Text to speech/, csv);

  const files = page.getByRole('region', { name: 'Result files' });
  const button = files.getByRole('button', { name: 'Download results (.zip)' });
  await expect(button).toBeEnabled();
  await expect(files).toContainText('3 items as files');
  await shot(page, 'batch-detail-result-files', testInfo);

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`-${id}-files\\.zip$`));
  const entries = await unzip((await download.path()) ?? '');
  expect([...entries.keys()]).toEqual(['arrival.wav', 'thanks.wav', 'row-4.wav']);
  const saved = join(work, 'data', 'outputs', id); // the host's data folder (fixtures: work/data)
  for (const [name, bytes] of entries) {
    expect(bytes.subarray(0, 4).toString('latin1'), name).toBe('RIFF');
    expect(bytes.equals(readFileSync(join(saved, name))), name).toBe(true);
  }
  await expect(files.getByRole('status')).toContainText('Downloading the results');
});

test('no result files button where items have no file of their own', async ({ host, page, work }) => {
  const txt = join(work, 'notes.txt');
  writeFileSync(txt, 'alpha\nbeta\n');
  await openApp(page, host);
  await runBatch(page, /^Embed for search/, txt);
  await expect(page.getByRole('button', { name: /Export/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Result files' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Download results|Save results to folder/ })).toHaveCount(0);
});
