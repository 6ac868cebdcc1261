// The window on a team's shared store: the browser host started with `--store URL` shows the
// Team screen, which lists a batch created with `batch create --store` and follows it live while a
// separate worker process (`run --store`) sends it: progress rising, "in flight on: host pid (n)",
// and done at the end. A throw-away PostgreSQL cluster is the store; the sandbox is the API.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectExactlyOnce, goTo, messagesCsv, openApp, shot, test } from './fixtures';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { runCli, startCli, type CliResult } from '../helpers/cli';

const ROWS = 60;

test.describe('team screen', () => {
  let cluster: PgCluster | null = null;
  test.afterEach(() => {
    cluster?.destroy();
    cluster = null;
  });

  test('shows every batch of the shared store live, with which worker runs what', async ({ page, sandbox, work, launch }, testInfo) => {
    test.setTimeout(180_000);
    cluster = await startPgCluster();
    const store = await cluster.freshDatabase('team_e2e');
    const keys = { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey };
    const csv = messagesCsv(work, ROWS);

    const created = await runCli(
      ['batch', 'create', 'channel', csv, '--name', 'Team notice', '--store', store, '--data-dir', join(work, 'planner'), '--api-url', sandbox.url, '--json'],
      keys,
    );
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;

    const host = await launch({ store, env: keys });
    expect(host.output()).toContain('Team: the shared store');
    await openApp(page, host);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
    await expect(page.getByTestId('team-store')).toContainText('the shared store postgresql://');
    await expect(page.getByTestId('team-workers-up')).toContainText('No worker is up.');

    const row = page.getByTestId(`team-batch-${id}`);
    await expect(row).toContainText('Team notice');
    await expect(row).toContainText(id);
    await expect(row.getByTestId('team-status')).toHaveText('Not started');
    await expect(row.getByTestId('team-counts')).toContainText(`0 of ${ROWS} done`);

    // Made by `batch create --store`, it waits for a start: Start starts it for the team. Pause and
    // resume then act on the shared store itself (every worker sees them).
    await row.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(row.getByTestId('team-status')).toHaveText('Running');
    await row.getByRole('button', { name: 'Pause' }).click();
    await expect(row.getByTestId('team-status')).toContainText('Paused');
    await expect(row.getByTestId('team-status')).toContainText('Paused by the user.');
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect(row.getByTestId('team-status')).toHaveText('Running');

    // Cancel is asked first (it cannot be undone, for the whole team): kept, then a second batch cancelled.
    await row.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('dialog', { name: 'Cancel "Team notice" for the team?' });
    await expect(ask).toContainText('No worker sends its items not yet sent');
    await ask.getByRole('button', { name: 'Keep batch' }).click();
    await expect(ask).toBeHidden();
    await expect(row.getByTestId('team-status')).toHaveText('Running');
    const other = await runCli(
      [
        'batch',
        'create',
        'channel',
        csv,
        '--name',
        'Old notice',
        '--allow-resend',
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
    expect(other.code, other.stderr).toBe(0);
    const otherRow = page.getByTestId(`team-batch-${(JSON.parse(other.stdout) as { batch: { id: string } }).batch.id}`);
    await otherRow.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Cancel "Old notice" for the team?' }).getByRole('button', { name: 'Yes, cancel batch' }).click();
    await expect(otherRow.getByTestId('team-status')).toContainText('Cancelled');

    // A standing worker on a computer without the channel key: the row says it does not send
    // the batch and why, and that no worker up can; stopped, it is gone from the row.
    const keyless = startCli(['run', '--watch', '--store', store, '--data-dir', join(work, 'keyless'), '--api-url', sandbox.url], {
      BATCHDESK_API_KEY: sandbox.apiKey,
    });
    try {
      const notSent = row.getByTestId('team-not-sent');
      await expect(notSent.first()).toContainText(new RegExp(`not sent by \\S+ ${keyless.child.pid ?? 'no-pid'}: this computer has no channel key`), {
        timeout: 30_000,
      });
      await expect(notSent.nth(1)).toContainText('No worker up can send it');
    } finally {
      keyless.child.kill('SIGTERM');
      await keyless.done;
    }
    await expect(row.getByTestId('team-not-sent')).toHaveCount(0);

    // Latency keeps the worker busy for several seconds (4 in flight at a time), so the screen
    // can be seen following it.
    await sandbox.admin.setFaults({ latency_ms: 400 });
    const worker = startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys);
    let finished: CliResult | null = null;
    void worker.done.then((r) => (finished = r));
    try {
      const inFlight = row.getByTestId('team-in-flight');
      // The worker's own name: "host pid (items it holds)".
      await expect(inFlight).toContainText(new RegExp(`in flight on: \\S+ ${worker.child.pid ?? 'no-pid'} \\(\\d+\\)`), { timeout: 30_000 });
      await expect(row.getByTestId('team-status')).toHaveText('Running');
      // Listed among the workers up too, with what it holds.
      await expect(page.getByTestId('team-workers-up')).toContainText(new RegExp(`Workers up: \\S+ ${worker.child.pid ?? 'no-pid'} \\(\\d+ in flight, since`));
      await shot(page, 'team-running', testInfo);

      const doneCount = async (): Promise<number> => Number(/^(\d+) of/.exec((await row.getByTestId('team-counts').textContent()) ?? '')?.[1] ?? -1);
      const first = await doneCount();
      await expect.poll(doneCount, { timeout: 60_000, message: 'progress did not rise' }).toBeGreaterThan(first);

      await expect(row.getByTestId('team-status')).toHaveText('Done', { timeout: 90_000 });
      await expect(row.getByTestId('team-counts')).toContainText(`${ROWS} of ${ROWS} done`);
      await expect(inFlight).not.toContainText('in flight on');
      const result = await worker.done;
      expect(result.code, result.stderr).toBe(0);
      // Done and gone: no longer listed.
      await expect(page.getByTestId('team-workers-up')).toContainText('No worker is up.');
      expect(result.stderr).toMatch(/^Worker \S+ \d+ on the shared store/m);
    } finally {
      if (finished === null) worker.child.kill('SIGKILL');
      await worker.done;
    }

    const ledger = await sandbox.admin.ledger();
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ROWS);
  });

  test('a batch made in New batch for the team goes to the shared store, started, and a worker sends it', async ({ page, sandbox, work, launch }, testInfo) => {
    test.setTimeout(120_000);
    cluster = await startPgCluster();
    const store = await cluster.freshDatabase('team_new');
    const keys = { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey };
    const host = await launch({ store, env: keys });
    await openApp(page, host);
    await goTo(page, 'New batch');

    // Files are not carried to the team from the window: said, and Start stays off.
    await page.getByRole('radio', { name: /^Transcribe recordings/ }).check();
    await page.getByRole('radio', { name: /^The team: its workers, from the shared store postgresql:/ }).check();
    await expect(page.getByRole('alert')).toContainText('which every worker must find at the same path');

    await page.getByRole('radio', { name: /^Send messages/ }).check();
    await page.getByLabel('Files to add').setInputFiles(messagesCsv(work, 12, 'team-window.csv'));
    await page.getByLabel('Name (optional)').fill('From the window');
    await expect(page.getByTestId('team-hint')).toContainText('moved whole to the shared store');
    const estimate = page.getByRole('region', { name: 'Estimate' });
    await expect(estimate.locator('dt', { hasText: /^Items$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText('12');
    await page.getByTestId('team-hint').scrollIntoViewIfNeeded();
    await shot(page, 'new-batch-for-the-team', testInfo);
    await page.getByRole('button', { name: 'Start batch for the team' }).click();

    await expect(page).toHaveURL(/#\/team$/);
    const row = page.locator('[data-testid^="team-batch-"]', { hasText: 'From the window' });
    await expect(row.getByTestId('team-counts')).toContainText('0 of 12 done');
    // Not in this computer's own batches: only the team sends it.
    await goTo(page, 'Batches');
    await expect(page.getByText('From the window')).toHaveCount(0);

    const worker = startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys);
    const result = await worker.done;
    expect(result.code, result.stderr).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true }).click();
    await expect(row.getByTestId('team-status')).toHaveText('Done', { timeout: 30_000 });
    expectExactlyOnce(await sandbox.admin.ledger(), 12);

    // A pipeline for the team: its Then step goes with it, and a worker sends both steps.
    await goTo(page, 'New batch');
    await page.getByRole('radio', { name: /^Summarise, reply, classify/ }).check();
    const notes = join(work, 'team-notes.txt');
    writeFileSync(notes, `${Array.from({ length: 4 }, (_, i) => `Customer ${i} asks for a refund of the October invoice.`).join('\n')}\n`);
    await page.getByLabel('Files to add').setInputFiles(notes);
    await page.getByLabel('Name (optional)').fill('Team pipeline');
    await page.getByRole('radio', { name: /^The team: its workers, from the shared store postgresql:/ }).check();
    const then = page.getByRole('region', { name: 'Then' });
    await then.getByRole('button', { name: 'Add a step' }).click();
    await then.getByLabel('Step 2 capability').selectOption('crm');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.getByRole('button', { name: 'Start pipeline (2 steps) for the team' }).click();
    await expect(page).toHaveURL(/#\/team$/);
    const steps = page.locator('[data-testid^="team-batch-"]', { hasText: 'Team pipeline' });
    await expect(steps).toHaveCount(2);
    const pipelineWorker = startCli(['run', '--store', store, '--data-dir', join(work, 'worker'), '--api-url', sandbox.url], keys);
    const piped = await pipelineWorker.done;
    expect(piped.code, piped.stderr).toBe(0);
    for (let i = 0; i < 2; i++) await expect(steps.nth(i).getByTestId('team-status')).toHaveText('Done', { timeout: 30_000 });
    await expect(steps.nth(1).getByTestId('team-counts')).toContainText('4 of 4 done');
  });
});

test('without --store there is no Team link, and #/team says how to get one', async ({ page, host }) => {
  await openApp(page, host);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys & rates' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true })).toHaveCount(0);
  await page.goto(`${host.url}/#/team`);
  await expect(page.getByText('This Batchdesk works on its data folder only')).toBeVisible();
});
