// The dispatch cases (test/conformance/dispatch-cases.ts) run by the local runner on this data
// folder's SQLite file, as `batchdesk run` sends; the same cases run by a team worker on
// PostgreSQL in dispatch-pg.test.ts.
import { dispatchCases, type AttemptView, type DispatchRig } from '../conformance/dispatch-cases';
import { attemptsOf, eventsOfJob, jobsOf, messagesBatch, startHarness } from './harness';

dispatchCases('local runner, SQLite', async (config): Promise<DispatchRig> => {
  const h = await startHarness(config ? { config } : {});
  return {
    sb: h.sb,
    admin: h.admin,
    messages: (n, opts) => messagesBatch(h, n, opts),
    optOut: async (recipient) => {
      h.engine.optOuts.add(recipient, 'test');
    },
    setRequestBody: async (jobId, body) => {
      h.engine.db.prepare(`UPDATE jobs SET request_body = ? WHERE id = ?`).run(body, jobId);
    },
    run: (id) => h.run({ batchIds: [id] }),
    jobs: async (id) => jobsOf(h.engine, id),
    attempts: async (id): Promise<AttemptView[]> =>
      attemptsOf(h.engine, id).map((a) => ({ job_id: a.job_id, http_status: a.http_status, outcome: a.outcome, error_message: a.error_message, replayed: a.replayed === 1, finished: a.finished_at !== null })),
    events: async (jobId) => eventsOfJob(h.engine, jobId),
    batch: async (id) => {
      const s = h.engine.summary(id);
      return { status: s.status, pause_kind: s.pause?.kind ?? null, pause_reason: s.pause?.reason ?? null, spent: s.cost.spent };
    },
    retryFailed: async (id) => h.engine.retryFailed(id),
    resume: async (id, budget) => {
      h.engine.resume(id, budget === undefined ? {} : { budget });
    },
  };
});
