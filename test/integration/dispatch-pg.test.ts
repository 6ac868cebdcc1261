// The dispatch cases (test/conformance/dispatch-cases.ts) run by a team worker on a real
// PostgreSQL store (a throw-away cluster): each batch is planned in one data folder, moved to the
// shared store, and sent by a worker with a data folder of its own, as `run --store` does. The same
// cases run by the local runner on SQLite in dispatch-sqlite.test.ts.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Engine } from '../../src/main/engine/engine';
import { connect } from '../../src/main/compose/connect';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import type { RunnerConfig } from '../../src/main/engine/queue/runner';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { dispatchCases, type AttemptView, type DispatchRig } from '../conformance/dispatch-cases';
import { messagesBatch, noKeychain, startHarness, TEST_CONFIG } from './harness';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
});
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});
afterAll(() => cluster?.destroy());

dispatchCases('team worker, PostgreSQL', async (config): Promise<DispatchRig> => {
  const merged: RunnerConfig = {
    ...TEST_CONFIG,
    ...config,
    backoff: { ...TEST_CONFIG.backoff, ...config?.backoff },
    gate: { ...TEST_CONFIG.gate, ...config?.gate },
    serverWait: { ...TEST_CONFIG.serverWait, ...config?.serverWait },
  };
  // The planner's machine (and the sandbox), the shared store, and the worker's own machine.
  const h = await startHarness({ config: merged });
  const url = await cluster.freshDatabase('dispatch');
  const store = await PgQueueStore.open({ url, clock: systemClock, worker: 'planner' });
  const workerStore = await PgQueueStore.open({ url, clock: systemClock, worker: 'worker 1' });
  const db = new pg.Pool({ connectionString: url, max: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-dispatch-pg-'));
  const engine = Engine.open({ dataDir: dir, secrets: noKeychain, env: h.env, config: merged });
  const conn = await connect({ apiUrl: h.sb.url, env: h.env, keys: engine.keys, dataDir: dir });
  closing.push(async () => {
    engine.close();
    await conn.close();
    await store.close();
    await workerStore.close();
    await db.end();
    await rm(dir, { recursive: true, force: true });
  });
  const rows = async <R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> => (await db.query<R>(sql, params)).rows;
  const jobs = async (id: string): Promise<JobRow[]> => {
    const out: JobRow[] = [];
    for (let after = 0; ; ) {
      const page = await store.jobsPage(id, after, 500);
      if (page.length === 0) return out;
      out.push(...page);
      after = page[page.length - 1]?.seq ?? after;
    }
  };
  return {
    sb: h.sb,
    admin: h.admin,
    messages: async (n, opts) => {
      const id = await messagesBatch(h, n, opts);
      await h.engine.handOver(id, store);
      await store.start(id);
      return id;
    },
    optOut: async (recipient) => {
      engine.optOuts.add(recipient, 'test');
    },
    setRequestBody: async (jobId, body) => {
      await db.query(`UPDATE jobs SET request_body = $2 WHERE id = $1`, [jobId, body]);
    },
    run: async (id) => {
      await engine.runTeam(conn.target, { store: workerStore, clock: systemClock, worker: 'worker 1' }, { batchIds: [id], say: () => undefined });
    },
    jobs,
    attempts: async (id): Promise<AttemptView[]> =>
      (
        await rows<{ job_id: string; http_status: number | null; outcome: string; error_message: string | null; replayed: number; finished_at: string | null }>(
          `SELECT a.job_id, a.http_status, a.outcome, a.error_message, a.replayed, a.finished_at FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1 ORDER BY a.id`,
          [id],
        )
      ).map((a) => ({ job_id: Number(a.job_id), http_status: a.http_status, outcome: a.outcome, error_message: a.error_message, replayed: a.replayed === 1, finished: a.finished_at !== null })),
    events: async (jobId) => store.jobEvents(jobId),
    batch: async (id) => {
      const b = await store.batch(id);
      if (!b) throw new Error(`no batch ${id}`);
      return { status: b.status, pause_kind: b.pause_kind, pause_reason: b.pause_reason, spent: (await store.stats(id)).spent };
    },
    retryFailed: (id) => store.retryFailed(id),
    resume: async (id, budget) => {
      if (budget !== undefined) await store.setBudget(id, budget);
      await store.resume(id);
    },
  };
});
