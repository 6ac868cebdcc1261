// A watched folder's batch moved to a team's store keeps where its files came from (pg step 24),
// so a team worker that finds a file changed before sending gives the advice of that origin,
// `watch resend` (the window's Send this version too), as one computer does
// (watch-changed-before-sent.test.ts), not "create a new batch".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Engine } from '../../src/main/engine/engine';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import { Control } from '../../src/main/engine/control/control';
import { teamDesk } from '../../src/main/desk/team-desk';
import { PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { INVOICES, noKeychain, startHarness, TEST_CONFIG } from './harness';
import { tempDir } from '../helpers/temp-dir';

const PDF = join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf');
const PDF2 = join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf');

let cluster: PgCluster | undefined;
beforeAll(async () => {
  cluster = await startPgCluster();
}, PG_START_MS);
afterAll(() => cluster?.destroy());

describe("a watched folder's batch on a team's store", () => {
  it('a team worker says `watch resend` for its file that changed before it was sent', async () => {
    if (!cluster) throw new Error('no cluster');
    const h = await startHarness();
    const dir = tempDir('batchdesk-watch-changed-pg-');
    const url = await cluster.freshDatabase('watch');
    const store = await PgQueueStore.open({ url, clock: systemClock, worker: 'planner' });
    const workerStore = await PgQueueStore.open({ url, clock: systemClock, worker: 'worker 1' });
    const db = new pg.Pool({ connectionString: url, max: 1 });
    const workerDir = await mkdtemp(join(tmpdir(), 'batchdesk-watch-worker-'));
    const worker = Engine.open({ dataDir: workerDir, secrets: noKeychain, env: h.env, config: TEST_CONFIG });
    try {
      const folder = join(dir.path, 'scans');
      mkdirSync(folder);
      h.engine.hotFolders.add({ dir: folder, capability: 'ocr', budgetPerDay: 20_000 });
      const path = join(folder, 'invoice.pdf');
      copyFileSync(PDF, path);
      const taken = await h.engine.hotFolders.resend(path);
      if (taken.kind !== 'taken') throw new Error(`not taken: ${taken.kind}`);
      // Moved to the team's store, as `batch create --store` moves a batch made here.
      const moved = await h.engine.handOver(taken.batchId, store);
      expect(moved.moved).toBe(1);
      const row = await db.query<{ watch_dir: string | null }>(`SELECT watch_dir FROM batches WHERE id = $1`, [taken.batchId]);
      expect(row.rows[0]?.watch_dir).toBe(folder);

      copyFileSync(PDF2, path);
      await new Control({ store }).start([taken.batchId]);
      const desk = teamDesk(
        { store: workerStore, control: new Control({ store: workerStore }), clock: systemClock, worker: 'worker 1', description: 'the shared store', url },
        () => worker,
        () => undefined,
      );
      await desk.send(h.target, { batchIds: [taken.batchId], scope: [taken.batchId], signal: new AbortController().signal, say: () => undefined });
      const [job] = await workerStore.jobsPage(taken.batchId, 0, 10);
      expect(job?.state).toBe('failed');
      expect(job?.error_message).toMatch(
        /invoice\.pdf: the file changed after its watched folder took it \(its content is different\), so it was not sent under the old idempotency key\. It came from a watched folder: to send the new version, `batchdesk watch resend \S+invoice\.pdf` \(in the window: Watch folders, Send this version too\)\./,
      );
      expect(job?.error_message).not.toMatch(/Create a new batch/);
    } finally {
      worker.close();
      await store.close();
      await workerStore.close();
      await db.end();
      await rm(workerDir, { recursive: true, force: true });
      dir.cleanup();
    }
  }, 180_000);
});
