// The invoice list marks an invoice the supplier memory has suggestions for, read as the window
// reads it (engine/reader/read-only-view.ts, the reader thread's connection): the samples'
// October Marlowe invoice accepted in review, November's Marlowe invoice (no VAT number printed,
// every check passed) is marked with the VAT id from that review, as its job dialog offers it;
// the invoice whose review taught it, and the other supplier's, are not; applied, the mark goes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadOnlyView } from '../../src/main/engine/reader/read-only-view';
import { databaseFile } from '../../src/main/engine/data-dir';
import { createAndRun, INVOICES, SAMPLES, startHarness } from './harness';

const OCTOBER = 'invoice-marlowe-INV-2026-0088.png';
const NOVEMBER = 'invoice-marlowe-INV-2026-0131.pdf';

describe('the supplier memory in the invoice list', () => {
  it("marks November's Marlowe invoice with the VAT id October's review taught, as the dialog offers it", async () => {
    const h = await startHarness();
    const view = ReadOnlyView.open(databaseFile(h.dir));
    try {
      const e = h.engine;
      const oct = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
      const page = (batchId: string) => view.jobPage({ batchId, limit: 50, offset: 0 }).rows;
      const byFile = (batchId: string, file: string) => page(batchId).find((r) => r.source.endsWith(file));
      // Nothing remembered yet: no marks.
      expect(page(oct.id).map((r) => r.suggested)).toEqual([null, null, null, null]);
      const taughtRow = byFile(oct.id, OCTOBER);
      const taught = taughtRow?.id ?? 0;
      // Named as the window names that job: its item number in its batch, the batch's name.
      const from = { fromJob: taught, fromSeq: taughtRow?.seq, fromBatchName: 'invoices (4 scans)' };
      await e.reviews.save(taught, { edits: [{ field: 'gross', value: '769.20' }], decision: 'accepted', by: 'ann' });

      const nov = await createAndRun(h, { capability: 'ocr', paths: [join(SAMPLES, 'invoices-november')] });
      const marlowe = byFile(nov.id, NOVEMBER);
      expect(marlowe).toMatchObject({ state: 'succeeded', failedChecks: [], suggested: { ...from, fields: ['vendorVatId'] } });
      // The same as its dialog offers, and as the engine's own connection lists it.
      const dialog = await e.reviews.view(marlowe?.id ?? 0);
      expect(dialog.suggestions.map((s) => [s.field, s.value, s.fromJob, s.fromSeq, s.fromBatchName])).toEqual([
        ['vendorVatId', 'GB562884130', taught, from.fromSeq, from.fromBatchName],
      ]);
      expect(view.jobPage({ batchId: nov.id, limit: 50, offset: 0 })).toEqual(e.jobPage({ batchId: nov.id, limit: 50, offset: 0 }));
      // The credit note's supplier has no review; the invoice that taught it is not offered its own values.
      expect(
        page(nov.id)
          .filter((r) => r.id !== marlowe?.id)
          .map((r) => r.suggested),
      ).toEqual([null]);
      expect(page(oct.id).map((r) => r.suggested)).toEqual([null, null, null, null]);

      // Applied (the invoice now holds the remembered value), nothing differs: the mark goes.
      await e.reviews.save(marlowe?.id ?? 0, { edits: [{ field: 'vendorVatId', value: 'GB562884130' }], by: 'ann' });
      expect(byFile(nov.id, NOVEMBER)?.suggested).toBeNull();
      expect((await e.reviews.view(marlowe?.id ?? 0)).suggestions).toEqual([]);
      // Another value there again (the correction undone): marked again.
      await e.reviews.save(marlowe?.id ?? 0, { invoice: null, by: 'ann' });
      expect(byFile(nov.id, NOVEMBER)?.suggested).toEqual({ ...from, fields: ['vendorVatId'] });
    } finally {
      view.close();
      h.engine.close();
    }
  });
});
