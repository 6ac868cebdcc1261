// One arm of the loop bench (scripts/bench/store-loop.ts), in a process of its own: the local
// runner (Engine.run: group commit) or a team worker's loop over the data folder's QueueStore
// (SqliteQueueStore: every transition its own transaction, as team/team-worker.ts writes them),
// on the same kind of batch against the same sandbox. Prints the loop's own time (start-up left
// out on both sides) and how many items succeeded, as JSON.
//   node --import tsx scripts/bench/store-loop-child.ts runner|store DIR BATCH URL CHANNEL_KEY CONCURRENCY
import { Engine } from '../../src/main/engine/engine';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import type { ApiTarget, ResolvedKey } from '../../src/main/engine/api/target';
import type { LeasedJob } from '../../src/main/engine/store/queue-store';
import { capabilityFor } from '../../src/main/engine/capabilities/registry';
import { contextOf } from '../../src/main/engine/capabilities/capability';
import { beforeSend } from '../../src/main/engine/queue/before-send';
import { requestFor, sendJobRequest } from '../../src/main/engine/queue/job-request';
import { judgeAnswer } from '../../src/main/engine/queue/answer-verdict';
import { Wakeup } from '../../src/main/engine/queue/wakeup';

const args = process.argv.slice(2);
const arg = (i: number): string => {
  const v = args[i];
  if (v === undefined) throw new Error('usage: store-loop-child.ts runner|store DIR BATCH URL CHANNEL_KEY CONCURRENCY');
  return v;
};
const [mode, dir, batchId, url, channelKey] = [arg(0), arg(1), arg(2), arg(3), arg(4)];
const concurrency = Number(arg(5));

const secrets = new Map<string, string>();
const memory: SecretStore = {
  set: async (a, s) => void secrets.set(a, s),
  get: async (a) => secrets.get(a) ?? null,
  delete: async (a) => secrets.delete(a),
};
const key: ResolvedKey = { secret: channelKey, label: 'bench', source: 'env', id: null, rpm: null, baseUrl: null };
const target: ApiTarget = { baseUrl: url, sandbox: false, resolveKey: async () => key };

/** The team worker's sequence per item over the store port: claim, attempt, send, transition, attempt's end. */
async function storeLoop(engine: Engine): Promise<void> {
  const store = engine.queue;
  await store.start(batchId);
  const batch = await store.batch(batchId);
  if (!batch) throw new Error(`no batch ${batchId}`);
  const cap = capabilityFor(batch.capability);
  const ctx = contextOf(batch);
  const config = engine.runnerConfig();
  const signal = new AbortController().signal;
  let inflight = 0;
  const wake = new Wakeup();
  const process1 = async (job: LeasedJob): Promise<void> => {
    const pre = await beforeSend(job, cap, { optedOut: (r) => engine.optOuts.find(r), timing: () => ({ kind: 'send' }) });
    if (pre.kind !== 'send') throw new Error(`not sendable: ${pre.kind}`);
    const request = requestFor(cap, pre.payload, job, batch.id, ctx, dir);
    const attemptId = await store.startAttempt(job.id, key.label);
    const response = await sendJobRequest(url, key.secret, request, signal, config);
    const verdict = judgeAnswer({
      response,
      job,
      batch,
      cap,
      payload: pre.payload,
      ctx,
      src: pre.src,
      origin: 'batch',
      key,
      api: url,
      secrets: [key.secret],
      rates: engine.rates,
      now: Date.now(),
    });
    if (verdict.kind !== 'succeeded') throw new Error(`answer: ${verdict.kind}`);
    await store.succeed(job, {
      units: verdict.units,
      cost: verdict.cost,
      resultJson: verdict.resultJson,
      rawResponse: verdict.raw,
      httpStatus: response.status,
    });
    await store.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome: 'succeeded', message: null, replayed: false });
  };
  for (;;) {
    const jobs = inflight < concurrency ? await store.claim(batchId, concurrency - inflight, config.leaseMs) : [];
    for (const job of jobs) {
      inflight++;
      void process1(job).finally(() => {
        inflight--;
        wake.notify();
      });
    }
    if (jobs.length === 0 && inflight === 0) break;
    await wake.wait(1_000, signal);
  }
}

const engine = Engine.open({ dataDir: dir, secrets: memory });
const t0 = performance.now();
if (mode === 'runner') await engine.run(target, { batchIds: [batchId], start: [batchId] });
else await storeLoop(engine);
const ms = performance.now() - t0;
const done = (await engine.queue.stats(batchId)).counts.succeeded;
engine.close();
process.stdout.write(`${JSON.stringify({ ms, done })}\n`);
