// The invoice list's supplier-memory mark on a team's store: the samples' October Marlowe invoice
// accepted in review on the shared store, November's Marlowe invoice (no VAT number printed, all
// checks passed) is listed by the store's job page with the VAT id from that review, as its
// dialog offers it; the invoice that taught it and the other supplier's are not marked; applied, the mark goes.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli';
import { keyEnv, startWorker, useTeamRig } from '../helpers/team-run';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { PgReviewStore } from '../../src/main/engine/store/pg/pg-review-store';
import { InvoiceDecisions } from '../../src/main/engine/invoices/invoice-decisions';
import { systemClock } from '../../src/main/engine/clock';

const SAMPLES = fileURLToPath(new URL('../../resources/samples/', import.meta.url));

describe('team: the supplier memory in the invoice list', () => {
  const rig = useTeamRig('batchdesk-team-memory-list-', { seed: 23 });

  it("marks November's Marlowe invoice with the VAT id October's review taught", async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('memory');
    const sent = async (folder: string): Promise<string> => {
      const made = await runCli(
        ['batch', 'create', 'ocr', join(SAMPLES, folder), '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url, '--json'],
        keyEnv(sb),
      );
      expect(made.code, made.stderr).toBe(0);
      const worker = startWorker({ storeUrl, dataDir: join(dir.path, `w-${folder}`), sb });
      live.push(worker);
      expect((await worker.done).code).toBe(0);
      return (JSON.parse(made.stdout) as { batch: { id: string } }).batch.id;
    };
    const oct = await sent('invoices');
    const store = await PgQueueStore.open({ url: storeUrl, clock: systemClock, worker: 'test 1' });
    try {
      const reviews = new InvoiceDecisions(new PgReviewStore(store), () => Date.now(), ' --store URL');
      const page = async (batchId: string) => (await store.jobPage({ batchId, limit: 50, offset: 0 })).rows;
      const byFile = async (batchId: string, file: string) => (await page(batchId)).find((r) => r.source.endsWith(file));
      expect((await page(oct)).map((r) => r.suggested)).toEqual([null, null, null, null]);
      const taughtRow = await byFile(oct, 'invoice-marlowe-INV-2026-0088.png');
      const taught = taughtRow?.id ?? 0;
      await reviews.save(taught, { edits: [{ field: 'gross', value: '769.20' }], decision: 'accepted', by: 'ann' });

      const nov = await sent('invoices-november');
      const marlowe = await byFile(nov, 'invoice-marlowe-INV-2026-0131.pdf');
      expect(marlowe).toMatchObject({ state: 'succeeded', failedChecks: [], suggested: { fromJob: taught, fromSeq: taughtRow?.seq, fields: ['vendorVatId'] } });
      const offered = (await reviews.view(marlowe?.id ?? 0)).suggestions;
      expect(offered.map((s) => [s.field, s.value, s.fromJob, s.fromSeq])).toEqual([['vendorVatId', 'GB562884130', taught, taughtRow?.seq]]);
      expect(offered[0]?.fromBatchName).toEqual(expect.any(String));
      expect((await page(nov)).filter((r) => r.id !== marlowe?.id).map((r) => r.suggested)).toEqual([null]);
      expect((await page(oct)).map((r) => r.suggested)).toEqual([null, null, null, null]);

      await reviews.save(marlowe?.id ?? 0, { edits: [{ field: 'vendorVatId', value: 'GB562884130' }], by: 'ann' });
      expect((await byFile(nov, 'invoice-marlowe-INV-2026-0131.pdf'))?.suggested).toBeNull();
    } finally {
      await store.close();
    }
  });
});
