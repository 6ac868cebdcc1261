// The two stores the conformance suites (test/conformance) run on, behind one StoreRig:
// - this data folder's SQLite file, sent by the local runner (`batch create`, `run`);
// - the team's PostgreSQL store in a throw-away cluster: planned on one machine (the harness's data
//   folder) and moved there as `batch create --store` does, sent by a worker with a data folder of
//   its own as `run --store` does, and paused, resumed and cancelled as `... --store` do.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Engine } from '../../src/main/engine/engine';
import { connect } from '../../src/main/compose/connect';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import { isEnded } from '../../src/shared/domain';
import { Control } from '../../src/main/engine/control/control';
import { teamCreateProblems } from '../../src/main/engine/team/team-create';
import { CLI_TODO } from '../../src/main/cli/commands/batch-create';
import type { Desk } from '../../src/main/desk/desk';
import { localDesk } from '../../src/main/desk/local-desk';
import { teamDesk } from '../../src/main/desk/team-desk';
import { PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import type { AttemptView, OpenStoreRig, RigOptions, StoreRig } from '../conformance/store-rig';
import type { ApiTarget } from '../../src/main/engine/api/target';
import { localResults, sharedResults } from '../../src/main/engine/read-models/job-results';
import { attemptsOf, eventsOfJob, jobsOf, noKeychain, startHarness, TEST_CONFIG } from './harness';

interface AttemptCells {
  job_id: number | string;
  http_status: number | null;
  outcome: string;
  error_message: string | null;
  key_label: string | null;
  replayed: number;
  finished_at: number | string | null;
  started_at: number | string;
}

function attemptView(a: AttemptCells): AttemptView {
  return {
    job_id: Number(a.job_id),
    http_status: a.http_status,
    outcome: a.outcome,
    error_message: a.error_message,
    key_label: a.key_label,
    replayed: a.replayed === 1,
    finished: a.finished_at !== null,
    started_at: Number(a.started_at),
  };
}

/** This data folder's SQLite file, as `batchdesk batch create` and `batchdesk run` use it. */
export const openLocalRig: OpenStoreRig = async (config, opts = {}) => {
  const h = await startHarness({
    ...(config ? { config } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
  });
  const target = targetOf(h.target, opts, h.engine);
  const desk = localDesk(h.engine);
  return {
    desk,
    dir: h.dir,
    sb: h.sb,
    admin: h.admin,
    env: h.env,
    rate: (item, tier) => h.engine.rates.rate(item, tier),
    create: (input) => desk.create(input),
    run: (id, signal) => sendAsRun(desk, target, id, signal),
    control: desk.control,
    summary: (id) => h.engine.control.summary(id),
    jobs: async (id) => jobsOf(h.engine, id),
    redactions: async (id) => h.engine.redactions(id),
    attempts: async (id) => attemptsOf(h.engine, id).map(attemptView),
    events: async (jobId) => eventsOfJob(h.engine, jobId),
    retryFailed: (id) => h.engine.control.retry(id),
    pause: (id) => h.engine.control.pause(id),
    resume: async (id, budget) => (await h.engine.control.resume(id, budget === undefined ? {} : { budget })).resumed,
    cancel: async (id) => (await h.engine.control.cancel(id)).jobs,
    schedule: (id, at) => h.engine.control.schedule(id, at),
    optOut: async (recipient) => {
      h.engine.optOuts.add(recipient, 'test');
    },
    setRequestBody: async (jobId, body) => {
      h.engine.db.prepare(`UPDATE jobs SET request_body = ? WHERE id = ?`).run(body, jobId);
    },
    results: (id) => localResults(h.engine.db, id, h.engine.outputsDir(id)),
    vector: async (jobId) => h.engine.jobs.vector(jobId),
    setting: async (name, value) => {
      h.engine.settings.set(name, value);
    },
    addKey: async (k) => {
      await h.engine.keys.add({ ...k, baseUrl: k.baseUrl ?? null });
    },
    spend: (q) => h.engine.control.spend(q),
    logs: () => logsOf(h.dir),
    everything: async () => [tablesOf(h.engine), await logsOf(h.dir)].join('\n'),
  };
};

/** As `batchdesk run [ID]` sends: the batch named with every step of its pipeline (or every unfinished one), started first. */
async function sendAsRun(desk: Desk, target: ApiTarget, id: string | undefined, signal: AbortSignal | undefined): Promise<void> {
  const c = desk.control;
  const scope = id !== undefined ? await c.withPipelines([id]) : (await c.summaries()).filter((b) => !isEnded(b.status)).map((b) => b.id);
  await desk.send(target, { batchIds: id !== undefined ? scope : null, scope, signal: signal ?? new AbortController().signal, say: () => undefined });
}

/** The sandbox's target, or one at `opts.apiUrl` with the same machine's keys. */
function targetOf(sandbox: ApiTarget, opts: RigOptions, engine: Engine): ApiTarget {
  return opts.apiUrl === undefined ? sandbox : { baseUrl: opts.apiUrl, sandbox: false, resolveKey: (kind) => engine.keys.resolve(kind) };
}

/** Every row of a data folder's SQLite file, as one text. */
function tablesOf(engine: Engine): string {
  const names = (engine.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name);
  return names.map((t) => JSON.stringify(engine.db.prepare(`SELECT * FROM "${t}"`).all())).join('\n');
}

/** Every log file of a data folder, as one text. */
async function logsOf(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'logs');
  const files = await readdir(dir).catch(() => []);
  return (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
}

/** The team's store: one cluster for the file's tests, a database of its own per rig. Call the returned function inside a test. */
export function usePgRigs(): OpenStoreRig {
  let cluster: PgCluster | undefined;
  const closing: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, PG_START_MS);
  afterEach(async () => {
    for (const c of closing.splice(0)) await c();
  });
  afterAll(() => cluster?.destroy());
  return async (config, opts = {}) => {
    if (!cluster) throw new Error('the cluster is not started (open the rig inside a test)');
    const merged: RunnerConfig = {
      ...TEST_CONFIG,
      ...config,
      backoff: { ...TEST_CONFIG.backoff, ...config?.backoff },
      gate: { ...TEST_CONFIG.gate, ...config?.gate },
      serverWait: { ...TEST_CONFIG.serverWait, ...config?.serverWait },
    };
    // The planner's machine (and the API), the shared store, and the worker's own machine.
    const clock = opts.clock ?? systemClock;
    const h = await startHarness({ config: merged, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.secrets ? { secrets: opts.secrets } : {}) });
    const url = await cluster.freshDatabase('rig');
    const store = await PgQueueStore.open({ url, clock, worker: 'planner' });
    const workerStore = await PgQueueStore.open({ url, clock, worker: 'worker 1' });
    const db = new pg.Pool({ connectionString: url, max: 2 });
    // The desk as `... --store URL` opens it on the planner's machine, and on the worker's.
    const control = new Control({ store });
    const handle = (s: PgQueueStore, worker: string) => ({ store: s, control: new Control({ store: s }), clock, worker, description: 'the shared store', url });
    const dir = await mkdtemp(join(tmpdir(), 'batchdesk-pg-rig-'));
    const worker = Engine.open({ dataDir: dir, secrets: opts.secrets ?? noKeychain, env: h.env, config: merged, clock });
    const conn = await connect({ apiUrl: h.sb.url, env: h.env, keys: worker.keys, dataDir: dir });
    const target = targetOf(conn.target, opts, worker);
    const desk = teamDesk(
      { ...handle(store, 'planner'), control },
      () => h.engine,
      () => undefined,
    );
    const workerDesk = teamDesk(
      handle(workerStore, 'worker 1'),
      () => worker,
      () => undefined,
    );
    closing.push(async () => {
      worker.close();
      await conn.close();
      await store.close();
      await workerStore.close();
      await db.end();
      await rm(dir, { recursive: true, force: true });
    });
    const rig: StoreRig = {
      desk,
      dir: h.dir,
      sb: h.sb,
      admin: h.admin,
      env: h.env,
      rate: (item, tier) => h.engine.rates.rate(item, tier),
      // As `batch create --store` reports it: what the team already has (or opted out) among the problems.
      create: async (input) => {
        const c = await desk.create(input);
        return { ...c, problems: teamCreateProblems(c, CLI_TODO) };
      },
      // As `run [ID] --store` sends, on the worker's machine.
      run: (id, signal) => sendAsRun(workerDesk, target, id, signal),
      control,
      summary: (id) => control.summary(id),
      redactions: (id) => store.redactions(id),
      jobs: async (id) => {
        const out: JobRow[] = [];
        for (let after = 0; ;) {
          const page = await store.jobsPage(id, after, 500);
          if (page.length === 0) return out;
          out.push(...page);
          after = page[page.length - 1]?.seq ?? after;
        }
      },
      attempts: async (id) =>
        (
          await db.query<AttemptCells>(
            `SELECT a.job_id, a.http_status, a.outcome, a.error_message, a.key_label, a.replayed, a.finished_at, a.started_at FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = $1 ORDER BY a.id`,
            [id],
          )
        ).rows.map(attemptView),
      events: (jobId) => store.jobEvents(jobId),
      retryFailed: (id) => control.retry(id),
      pause: (id) => control.pause(id),
      // As `resume --store` on the planner's machine: a refused key is replaced by the one it has now.
      resume: async (id, budget) =>
        (await control.resume(id, { ...(budget === undefined ? {} : { budget }), keyHere: (row) => h.engine.keyCheckFor(row) })).resumed,
      cancel: async (id) => (await control.cancel(id)).jobs,
      schedule: (id, at) => control.schedule(id, at),
      // The sender's own list (the worker's machine), as the local rig's is its data folder's.
      optOut: async (recipient) => {
        worker.optOuts.add(recipient, 'test');
      },
      setRequestBody: async (jobId, body) => {
        await db.query(`UPDATE jobs SET request_body = $2 WHERE id = $1`, [jobId, body]);
      },
      results: (id) => sharedResults(store, id),
      vector: (jobId) => store.vector(jobId),
      // The worker's own settings: the machine that sends reads them while it runs.
      setting: async (name, value) => {
        worker.settings.set(name, value);
      },
      addKey: async (k) => {
        // Each machine keeps its own keys: the planner's and the worker's, matched by label.
        for (const e of [h.engine, worker]) await e.keys.add({ ...k, baseUrl: k.baseUrl ?? null });
      },
      spend: (q) => control.spend(q),
      logs: async () => `${await logsOf(h.dir)}\n${await logsOf(dir)}`,
      // The shared store's every table, and both machines' data folders and logs.
      everything: async () => {
        const tables = (await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)).rows.map(
          (t) => t.tablename,
        );
        const rows = await Promise.all(tables.map(async (t) => JSON.stringify((await db.query(`SELECT * FROM "${t}"`)).rows)));
        return [...rows, tablesOf(h.engine), tablesOf(worker), await logsOf(h.dir), await logsOf(dir)].join('\n');
      },
    };
    return rig;
  };
}
