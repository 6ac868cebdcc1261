// The window on a team's shared store: the browser host started with `--store URL` opens one desk,
// the team's, so its Batches screen is the team's batches. A batch made by `batch create --store`
// is listed there, started, paused, resumed and (asked first) cancelled for every worker, and
// followed live while a separate worker process (`run --store`) sends it; New batch makes the
// team's batches. A throw-away PostgreSQL cluster is the store; the sandbox is the API.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectExactlyOnce, goTo, INVOICES, messagesCsv, openApp, shot, test } from './fixtures';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { runCli, startCli, type CliResult } from '../helpers/cli';

const ROWS = 60;

/** The Batches screen's row of a batch, with its controls shown (a lone batch shows them already). */
async function openRow(page: Page, id: string, name: string) {
  const row = page.getByTestId(`batch-row-${id}`);
  await expect(row).toContainText(name);
  const toggle = row.getByRole('button', { name: new RegExp(`^(Show|Hide) controls of ${name}$`) });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const controls = page.locator('.batch-table__detail', { has: page.getByRole('link', { name, exact: true }) });
  return { row, controls };
}

test.describe('the window on a team store', () => {
  let cluster: PgCluster | null = null;
  test.afterEach(() => {
    cluster?.destroy();
    cluster = null;
  });

  test("lists the team's batches in Batches, acts on them for every worker, and follows a worker sending", async ({
    page,
    sandbox,
    work,
    launch,
  }, testInfo) => {
    test.setTimeout(180_000);
    cluster = await startPgCluster();
    const store = await cluster.freshDatabase('team_e2e');
    const keys = { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey };
    const csv = messagesCsv(work, ROWS);
    const create = async (name: string, more: string[] = []): Promise<string> => {
      const made = await runCli(
        ['batch', 'create', 'channel', csv, '--name', name, ...more, '--store', store, '--data-dir', join(work, 'planner'), '--api-url', sandbox.url, '--json'],
        keys,
      );
      expect(made.code, made.stderr).toBe(0);
      return (JSON.parse(made.stdout) as { batch: { id: string } }).batch.id;
    };
    const id = await create('Team notice');

    const host = await launch({ store, env: keys });
    expect(host.output()).toContain('Batches: the shared store postgresql://');
    await openApp(page, host);
    // One Batches screen: no Team screen beside it.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true })).toHaveCount(0);
    await goTo(page, 'Batches');
    const { row, controls } = await openRow(page, id, 'Team notice');
    const status = row.locator('.status-pill');
    await expect(status).toHaveText('Not started');
    await expect(row).toContainText(`0 / ${ROWS}`);

    // Made by `batch create --store`, it waits for a start: Start starts it for the team; pause
    // and resume act on the shared store itself (every worker sees them). The host sends nothing.
    await controls.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(status).toHaveText('Running');
    await controls.getByRole('button', { name: 'Pause' }).click();
    await expect(status).toHaveText('Paused');
    await controls.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toHaveText('Running');
    await expect(row).toContainText(`0 / ${ROWS}`);

    // Cancel is asked first: kept; then a second batch, made meanwhile by the command line, is
    // listed live and cancelled.
    await controls.getByRole('button', { name: 'Cancel batch' }).click();
    await page.getByRole('dialog', { name: 'Cancel "Team notice"?' }).getByRole('button', { name: 'Keep batch' }).click();
    await expect(status).toHaveText('Running');
    const otherId = await create('Old notice', ['--allow-resend']);
    const other = await openRow(page, otherId, 'Old notice');
    await other.controls.getByRole('button', { name: 'Cancel batch' }).click();
    await page.getByRole('dialog', { name: 'Cancel "Old notice"?' }).getByRole('button', { name: 'Yes, cancel batch' }).click();
    await expect(other.row.locator('.status-pill')).toHaveText('Cancelled');

    // Latency keeps the worker busy for several seconds (4 in flight at a time), so the screen
    // can be seen following it.
    await sandbox.admin.setFaults({ latency_ms: 400 });
    const worker = startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys);
    let finished: CliResult | null = null;
    void worker.done.then((r) => (finished = r));
    try {
      const doneCount = async (): Promise<number> => Number(new RegExp(`(\\d+) / ${ROWS}`).exec((await row.textContent()) ?? '')?.[1] ?? -1);
      await expect.poll(doneCount, { timeout: 60_000, message: 'progress did not rise' }).toBeGreaterThan(0);
      await shot(page, 'team-running', testInfo);
      await expect(status).toHaveText('Done', { timeout: 90_000 });
      await expect(row).toContainText(`${ROWS} / ${ROWS}`);
      const result = await worker.done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^Worker \S+ \d+ on the shared store/m);
    } finally {
      if (finished === null) worker.child.kill('SIGKILL');
      await worker.done;
    }
    expectExactlyOnce(await sandbox.admin.ledger(), ROWS);

    // The batch's own page lists its items from the shared store (the host's data folder has none).
    await page.goto(`${host.url}/#/batches/${id}`);
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 30_000 });
    await expect(grid.getByRole('row').nth(1)).toContainText('Customer 0');
    await expect(grid.getByRole('row').nth(1)).toContainText('Succeeded');
  });

  test("a team's invoice is reviewed in the job dialog: corrected, accepted, and the team's batch counts it", async ({ page, sandbox, work, launch }) => {
    test.setTimeout(120_000);
    cluster = await startPgCluster();
    const store = await cluster.freshDatabase('team_review');
    const keys = { BATCHDESK_API_KEY: sandbox.apiKey };
    const made = await runCli(
      [
        'batch',
        'create',
        'ocr',
        ...INVOICES,
        '--name',
        'Team invoices',
        '--store',
        store,
        '--data-dir',
        join(work, 'planner'),
        '--api-url',
        sandbox.url,
        '--json',
      ],
      keys,
    );
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { batch: { id: string } }).batch.id;
    const sent = await startCli(['run', id, '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys).done;
    expect(sent.code, sent.stderr).toBe(0);

    const host = await launch({ store, env: keys });
    await openApp(page, host);
    await page.goto(`${host.url}/#/batches/${id}/review`);
    const counts = page.getByTestId('review-counts');
    await expect(counts).toHaveText('4 invoices: 3 passed, 1 needs review');
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect(grid.getByRole('row')).toHaveCount(2);
    await grid.getByRole('row').nth(1).click();
    const dialog = page.getByRole('dialog');
    const review = dialog.getByRole('region', { name: 'Invoice review' });
    await review.getByRole('textbox', { name: 'Gross', exact: true }).fill('769.20');
    await expect(dialog.getByRole('region', { name: 'Invoice checks' }).getByRole('heading')).toHaveText('Checks passed');
    await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(review.getByRole('status')).toContainText(/^Accepted by \S+/);
    await page.keyboard.press('Escape');
    await expect(counts).toHaveText('4 invoices: 3 passed, 1 accepted after review');

    // In the shared store: another desk's command line sees the decision.
    const listed = await runCli(['review', '--list', id, '--store', store, '--data-dir', join(work, 'elsewhere')]);
    expect(listed.stdout).toContain(`No invoice of batch ${id} needs review (4 invoice(s): 3 passed, 1 accepted, 0 rejected)`);
  });

  test("a batch made in New batch is the team's: in the shared store, started, and a worker sends it", async ({ page, sandbox, work, launch }) => {
    test.setTimeout(120_000);
    cluster = await startPgCluster();
    const store = await cluster.freshDatabase('team_new');
    const keys = { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey };
    const host = await launch({ store, env: keys });
    await openApp(page, host);
    await goTo(page, 'New batch');

    await page.getByRole('radio', { name: /^Send messages/ }).check();
    await page.getByLabel('Files to add').setInputFiles(messagesCsv(work, 12, 'team-window.csv'));
    await page.getByLabel('Name (optional)').fill('From the window');
    const estimate = page.getByRole('region', { name: 'Estimate' });
    await expect(estimate.locator('dt', { hasText: /^Items$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText('12');
    await page.getByRole('button', { name: 'Start batch' }).click();
    await expect(page).toHaveURL(/#\/batches\/b/);
    const id = /#\/batches\/([^/?]+)/.exec(page.url())?.[1] ?? '';

    // In the shared store: the team's status lists it, started.
    const status = await runCli(['status', id, '--store', store, '--data-dir', join(work, 'planner'), '--json'], keys);
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { batches: { name: string; started: boolean }[] }).batches[0]).toMatchObject({
      name: 'From the window',
      started: true,
    });

    const worker = startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys);
    const result = await worker.done;
    expect(result.code, result.stderr).toBe(0);
    await goTo(page, 'Batches');
    await expect(page.getByTestId(`batch-row-${id}`).locator('.status-pill')).toHaveText('Done', { timeout: 30_000 });
    expectExactlyOnce(await sandbox.admin.ledger(), 12);

    // A pipeline for the team: its Then step goes with it, and a worker sends both steps.
    await goTo(page, 'New batch');
    await page.getByRole('radio', { name: /^Summarise, reply, classify/ }).check();
    const notes = join(work, 'team-notes.txt');
    writeFileSync(notes, `${Array.from({ length: 4 }, (_, i) => `Customer ${i} asks for a refund of the October invoice.`).join('\n')}\n`);
    await page.getByLabel('Files to add').setInputFiles(notes);
    await page.getByLabel('Name (optional)').fill('Team pipeline');
    const then = page.getByRole('region', { name: 'Then' });
    await then.getByRole('button', { name: 'Add a step' }).click();
    await then.getByLabel('Step 2 capability').selectOption('crm');
    await page.getByRole('button', { name: 'Start pipeline (2 steps)' }).click();
    await expect(page).toHaveURL(/#\/batches\/b/);
    const piped = await startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys).done;
    expect(piped.code, piped.stderr).toBe(0);
    await goTo(page, 'Batches');
    // A pipeline is one row, its steps inside.
    const pipeline = page.locator('[data-testid^="batch-row-"]', { hasText: 'Team pipeline' });
    await expect(pipeline).toHaveCount(1);
    const steps = pipeline.getByRole('list', { name: 'Steps of this pipeline' }).getByRole('listitem');
    await expect(steps).toHaveCount(2);
    for (let i = 0; i < 2; i++) await expect(steps.nth(i)).toContainText('Done', { timeout: 30_000 });

    // Files dropped in the window stay on this computer: such a batch is refused for the team, with why.
    await goTo(page, 'New batch');
    await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
    await page.getByLabel('Files to add').setInputFiles(join(process.cwd(), 'resources', 'samples', 'recordings', 'call-001-double-charge.wav'));
    await page.getByRole('button', { name: 'Start batch' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'which every worker of the team must find at the same path' })).toBeVisible();
  });
});
