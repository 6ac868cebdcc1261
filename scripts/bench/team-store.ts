// Team mode's store, before the runner uses it: the transitions of dispatch (a claim of 16, then
// per job an attempt's start and end and its success, each its own durable transaction) with 1,
// 2 and 3 workers on one shared PostgreSQL store (a throw-away local cluster, fsync on), beside
// the SQLite store doing the same work through the same interface. No HTTP: this is the store's
// ceiling, not `run`'s figure. Then `run`'s figure: the built CLI's `run --store` in 1, 2 and 3
// worker processes beside `run` on the SQLite store (team-run.ts), on the same cluster.
import { join } from 'node:path';
import { openDatabase } from '../../src/main/engine/schema/open-database';
import { systemClock } from '../../src/main/engine/clock';
import { SqliteQueueStore } from '../../src/main/engine/store/sqlite/sqlite-queue-store';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import type { QueueStore } from '../../src/main/engine/store/queue-store';
import { startPgCluster, postgresBin } from '../../test/helpers/pg-cluster';
import { sealedBatch } from '../../test/conformance/queue-store-cases';
import { benchTeamRun } from './team-run';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const JOBS = 3_000;
const LOOPS_PER_WORKER = 4;
const ok = { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 };

/** Works the batch to the end with `loops` claimers on one store: jobs done. */
async function drain(store: QueueStore, batch: string, loops: number): Promise<number> {
  let done = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      for (;;) {
        const jobs = await store.claim(batch, 16 / loops, 60_000);
        if (jobs.length === 0) return;
        for (const j of jobs) {
          const a = await store.startAttempt(j.id, 'bench');
          await store.finishAttempt(a, { httpStatus: 200, latencyMs: 1, outcome: 'succeeded', message: null, replayed: false });
          if (await store.succeed(j, ok)) done++;
        }
      }
    }),
  );
  return done;
}

export async function benchTeamStore(o: { root: string; report: Report }): Promise<void> {
  if (!postgresBin()) {
    o.report('team store: claim + attempt + success', 'skipped', '-', 'PostgreSQL is not installed (apt-get install postgresql)');
    o.report('team run --store (built CLI)', 'skipped', '-', 'PostgreSQL is not installed (apt-get install postgresql)');
    return;
  }
  const local = new SqliteQueueStore(openDatabase(join(o.root, 'team-baseline.sqlite')), systemClock);
  await sealedBatch(local, 'b', JOBS);
  let t0 = performance.now();
  const localDone = await drain(local, 'b', LOOPS_PER_WORKER);
  const localRate = localDone / ((performance.now() - t0) / 1000);
  await local.close();

  const cluster = await startPgCluster();
  try {
    for (const workers of [1, 2, 3]) {
      const url = await cluster.freshDatabase('bench');
      const stores = await Promise.all(Array.from({ length: workers }, (_, i) => PgQueueStore.open({ url, clock: systemClock, worker: `bench ${i + 1}` })));
      await sealedBatch(stores[0] as QueueStore, 'b', JOBS * workers);
      t0 = performance.now();
      const done = (await Promise.all(stores.map((s) => drain(s, 'b', LOOPS_PER_WORKER)))).reduce((a, b) => a + b, 0);
      const rate = done / ((performance.now() - t0) / 1000);
      o.report(
        `team store, ${workers} worker${workers > 1 ? 's' : ''}: claim + attempt + success per job`,
        `${Math.round(rate).toLocaleString('en')} jobs/s`,
        `${Math.round(localRate).toLocaleString('en')} jobs/s SQLite`,
        `${done.toLocaleString('en')} jobs; each transition its own durable transaction, no HTTP, no group commit; workers in this process (own pools), PostgreSQL ${cluster.port} on this machine; baseline = the SQLite store through the same interface, ${LOOPS_PER_WORKER} claimers`,
      );
      await Promise.all(stores.map((s) => s.close()));
    }
    await benchTeamRun({ root: o.root, report: o.report, cluster });
  } finally {
    cluster.destroy();
  }
}
