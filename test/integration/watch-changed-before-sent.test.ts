// A file a watched folder took that changes before it is sent fails with the advice that fits its
// origin: `watch resend` (the window's Send this version too), not "create a new batch"; a file of
// a batch made by hand keeps that advice.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, jobsOf, INVOICES } from './harness';
import { tempDir } from '../helpers/temp-dir';

const PDF = join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf');
const PDF2 = join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf');

describe('a file that changed before it was sent', () => {
  it("says `watch resend` for a watched folder's item, and a new batch for a batch's", async () => {
    const h = await startHarness();
    const dir = tempDir('batchdesk-watch-changed-');
    try {
      const folder = join(dir.path, 'scans');
      mkdirSync(folder);
      h.engine.hotFolders.add({ dir: folder, capability: 'ocr', budgetPerDay: 20_000 });
      const path = join(folder, 'invoice.pdf');
      copyFileSync(PDF, path);
      const taken = await h.engine.hotFolders.resend(path);
      if (taken.kind !== 'taken') throw new Error(`not taken: ${taken.kind}`);
      copyFileSync(PDF2, path);
      await h.run({ batchIds: [taken.batchId] });
      const [job] = jobsOf(h.engine, taken.batchId);
      expect(job?.state).toBe('failed');
      expect(job?.error_message).toMatch(
        /invoice\.pdf: the file changed after its watched folder took it \(its content is different\), so it was not sent under the old idempotency key\. It came from a watched folder: to send the new version, `batchdesk watch resend \S+invoice\.pdf` \(in the window: Watch folders, Send this version too\)\./,
      );
      expect(job?.error_message).not.toMatch(/Create a new batch/);

      // The same change to a file of a batch made by hand.
      const own = join(dir.path, 'own.pdf');
      copyFileSync(PDF, own);
      const b = (await h.engine.createBatch({ capability: 'ocr', paths: [own] })).batch;
      if (!b) throw new Error('no batch');
      copyFileSync(PDF2, own);
      await h.run({ batchIds: [b.id] });
      const [mine] = jobsOf(h.engine, b.id);
      expect(mine?.error_message).toMatch(/own\.pdf: the file changed after the batch was created .*Create a new batch for the new version\./);
    } finally {
      dir.cleanup();
    }
  });
});
