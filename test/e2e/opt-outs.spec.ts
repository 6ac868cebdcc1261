// The opt-out list in the window: a number added on Keys & rates is listed with where it came
// from, a batch created afterwards leaves it out, and nobody on the list is sent anything.
import { test, expect, openApp, messagesCsv, shot } from './fixtures';
import { createBatch, rpc } from './helpers/processes';

test('opt-outs: added in the window, left out of a new batch, removed again', async ({ launch, sandbox, page, work }, testInfo) => {
  const host = await launch({ env: { BATCHDESK_API_KEY: sandbox.apiKey, BATCHDESK_CHANNEL_KEY: sandbox.channelKey } });
  await openApp(page, host);
  await page.goto(`${host.url}/#/keys`);
  const panel = page.getByRole('region', { name: 'Opt-outs' });
  await expect(panel.getByText('The list is empty.')).toBeVisible();
  await panel.getByLabel('Phone number or e-mail address').fill('+44 20 7946 0001');
  await panel.getByRole('button', { name: 'Add to opt-outs' }).click();
  await expect(panel.getByTestId('done-note')).toContainText('+442079460001 is on the list: nothing will be sent to it.');
  await expect(page.getByRole('status').filter({ hasText: '+442079460001 added to the opt-out list.' })).toHaveCount(1);
  await expect(panel.getByRole('row', { name: /\+442079460001 .* added in the window/ })).toBeVisible();
  // A number the list cannot hold is refused with what to do.
  await panel.getByLabel('Phone number or e-mail address').fill('07946 0002');
  await panel.getByRole('button', { name: 'Add to opt-outs' }).click();
  await expect(panel.getByRole('alert')).toContainText('is not a phone number that can be read. Write it with its country code');
  await panel.getByRole('alert').scrollIntoViewIfNeeded();
  await shot(page, 'keys-opt-outs', testInfo);

  // A batch of three leaves the listed one out, and sends the other two.
  const id = await createBatch(host, 'channel', [messagesCsv(work, 3)], { name: 'Notice' });
  await rpc(host, 'batches.start', { id });
  await expect.poll(async () => (await rpc<{ status: string }>(host, 'batches.get', { id })).status, { timeout: 20_000 }).toBe('done');
  const sent = (await sandbox.admin.ledger()).map((d) => d.to).sort();
  expect(sent).toEqual(['+442079460000', '+442079460002']);

  await panel.getByRole('button', { name: 'Remove +442079460001' }).click();
  await expect(panel.getByText('The list is empty.')).toBeVisible();
});
