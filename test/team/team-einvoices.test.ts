// A team worker reads e-invoices as one computer does (queue/local-verdict.ts): an XRechnung made
// on a planner's machine is read by a worker from its XML, never sent (the sandbox sees no key),
// succeeds at cost 0 with the XML's values, and is checked in its success's transaction.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { ciiXml, NORDLICHT, ublXml } from '../helpers/einvoice-files';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import { jobStates, keyEnv, query, startWorker, useTeamRig } from '../helpers/team-run';

describe('team: e-invoices', () => {
  const rig = useTeamRig('batchdesk-team-einvoices-', { seed: 15 });

  it('are read by the worker from their XML, free, with no request', async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('einvoices');
    const inbox = join(dir.path, 'inbox');
    mkdirSync(inbox);
    writeFileSync(join(inbox, 'ubl.xml'), ublXml(NORDLICHT));
    writeFileSync(join(inbox, 'cii.xml'), ciiXml({ ...NORDLICHT, number: 'RE-2026-2001' }));
    const r = await runCli(
      ['batch', 'create', 'ocr', inbox, '--name', 'e-invoices', '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url, '--json'],
      keyEnv(sb),
    );
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { batch: { id: string } }).batch.id;
    const worker = startWorker({ storeUrl, dataDir: join(dir.path, 'w1'), sb });
    live.push(worker);
    expect((await worker.done).code).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: 2 }]);
    const rows = await query<{ source: string; cost: string; attempts: number; result_json: string; needs_review: number }>(
      storeUrl,
      `SELECT j.source, j.cost, j.attempts, j.result_json, r.needs_review FROM jobs j JOIN invoice_reviews r ON r.job_id = j.id WHERE j.batch_id = $1 ORDER BY j.source`,
      [id],
    );
    expect(rows.map((x) => [x.source.split('/').pop(), Number(x.cost), Number(x.attempts), Number(x.needs_review)])).toEqual([
      ['cii.xml', 0, 0, 0],
      ['ubl.xml', 0, 0, 0],
    ]);
    expect(JSON.parse(rows[1]?.result_json ?? '{}')).toMatchObject({ read_from: 'e-invoice', invoice: { invoiceNumber: 'RE-2026-1107', gross: 1_128_200 } });
    expect(sb.store.db.prepare('SELECT COUNT(*) AS n FROM idempotency').get()).toEqual({ n: 0 });
    // Nothing was sent, so no API is recorded as where the batch went.
    expect(await query<{ api: string | null }>(storeUrl, `SELECT api FROM batches WHERE id = $1`, [id])).toEqual([{ api: null }]);
    const status = await runCli(['status', id, '--store', storeUrl, '--data-dir', join(dir.path, 'planner')]);
    expect(status.stdout).toContain('  read on this computer: nothing was sent, no cost\n');
    expect(status.stdout).not.toContain('sent to ');
    // The store's job rows carry the invoice's figures for the window, as the data folder's do.
    const store = await PgQueueStore.open({ url: storeUrl, clock: systemClock, worker: 'test 1' });
    try {
      const page = await store.jobPage({ batchId: id, limit: 10, offset: 0 });
      expect(page.rows.find((r) => r.source.endsWith('ubl.xml'))?.invoice).toEqual({
        number: 'RE-2026-1107',
        vendor: 'Nordlicht Handels GmbH',
        gross: 1_128_200,
        currency: 'EUR',
        fromEInvoice: true,
        read: null,
      });
    } finally {
      await store.close();
    }
  });
});
