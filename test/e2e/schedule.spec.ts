// A batch scheduled for later (`batch create --at`) shows its time in the window, and the time
// can be changed and removed there; nothing is sent meanwhile. Start sends it at once.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test, expect, openApp, messagesCsv, expectExactlyOnce, shot } from './fixtures';
import { CLI, rpc } from './helpers/processes';
import { batchCard, statusOf } from './helpers/batch-card';

test('a scheduled batch shows its time, which can be changed and removed in the window', async ({ launch, sandbox, page, work }, testInfo) => {
  const csv = messagesCsv(work, 3);
  // An hour of quiet six hours from now in London (the numbers are British): the sends at the end are not held.
  const london = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const quiet = `${String((london + 6) % 24).padStart(2, '0')}:00-${String((london + 7) % 24).padStart(2, '0')}:00`;
  const created = spawnSync(
    process.execPath,
    [
      CLI,
      'batch',
      'create',
      'channel',
      csv,
      '--name',
      'Reminders',
      '--yes',
      '--at',
      '2030-01-15T09:00Z',
      '--quiet-hours',
      quiet,
      '--recipient-gap',
      '1h',
      '--data-dir',
      join(work, 'data'),
    ],
    { encoding: 'utf8' },
  );
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toMatch(/Scheduled for /);

  const host = await launch({ env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey } });
  await openApp(page, host);
  const card = batchCard(page, 'Reminders');
  await expect(statusOf(card)).toHaveText('Not started');
  await expect(card.getByTestId('scheduled-for')).toContainText('Scheduled for');
  await expect(card.getByTestId('scheduled-for')).toContainText('2030');
  await expect(card.getByTestId('message-timing')).toHaveText(
    `Quiet hours ${quiet} in the recipient's local time · at least 1h between two messages to one person`,
  );
  await shot(page, 'batch-scheduled', testInfo);

  // Change the time: the input holds the current one; a new one is saved and shown.
  await card.getByRole('button', { name: 'Change time' }).click();
  // A date and a time, typed (an ISO date is read in every locale; the locale's own way in german.spec.ts).
  const when = card.getByRole('group', { name: 'Start at' });
  await when.getByLabel('Date').fill('2030-02-03');
  await when.getByLabel('Time').fill('10:30');
  await shot(page, 'batch-schedule-change', testInfo);
  await card.getByRole('button', { name: 'Save time' }).click();
  const expected = await page.evaluate(() => new Date('2030-02-03T10:30').toISOString());
  await expect.poll(async () => (await rpc<{ scheduled_for: string | null }[]>(host, 'batches.list'))[0]?.scheduled_for).toBe(expected);
  await expect(card.getByTestId('scheduled-for')).toContainText('2030');
  // Said once: by the toast; the line beside the control and the start time are no live regions.
  await expect(page.getByRole('status').filter({ hasText: /scheduled for/i })).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: /scheduled for/i })).toContainText('2030');
  await expect(card.getByTestId('done-note')).toContainText('Now scheduled for');

  // A time in the past is refused, saying so.
  await card.getByRole('button', { name: 'Change time' }).click();
  await card.getByRole('group', { name: 'Start at' }).getByLabel('Date').fill('2020-01-01');
  await card.getByRole('group', { name: 'Start at' }).getByLabel('Time').fill('10:00');
  await card.getByRole('button', { name: 'Save time' }).click();
  await expect(card.getByRole('alert')).toContainText('is in the past');
  await card.getByRole('button', { name: 'Keep as it was' }).click();

  // Remove the time: the batch waits for Start; nothing was sent.
  await card.getByRole('button', { name: 'Remove time' }).click();
  await expect(card.getByTestId('not-started')).toContainText('nothing is sent until you press Start');
  expect(await sandbox.admin.ledger()).toEqual([]);
  await shot(page, 'batch-schedule-removed', testInfo);

  await card.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(statusOf(card)).toHaveText('Done', { timeout: 20_000 });
  expectExactlyOnce(await sandbox.admin.ledger(), 3);
});
