// The commands' team mode (`--store URL` or BATCHDESK_STORE): the same verbs on the team's
// shared store instead of this computer's data folder. Keys, logs, settings and the opt-out list
// stay this computer's own; batches, jobs and their outcomes are the team's.
import { EXIT, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import type { Engine } from '../../engine/engine';
import type { SharedStoreHandle } from '../../engine/team/open-shared-store';
import type { WorkerUp } from '../../engine/store/pg/pg-queue-store';
import { WORKER_SEEN_MS } from '../../engine/team/team-worker';
import { leftNotes, workerState } from '../../../shared/team-batch';
import { isEnded, type BatchSummary } from '../../../shared/domain';
import { storeChoice } from '../desk';
import { openConnection } from '../context';
import { describeBatch, localTime, redactsItself } from '../format';
import { createProgress } from '../progress';
import { onInterrupt, standingExit } from '../interrupt';
import { runExit } from '../run-exit';
import { StoreOutage } from '../../engine/team/store-outage';

/** The shared store the command was pointed at, or null for this computer's data folder; `use` 'worker' for a command that sends. */
export async function openChosenStore(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  use: 'worker' | 'command' = 'command',
): Promise<SharedStoreHandle | null> {
  const choice = storeChoice(flag, env);
  if (choice.kind === 'sqlite') return null;
  // The PostgreSQL client is loaded only by commands that use it.
  const { openSharedStore } = await import('../../engine/team/open-shared-store');
  return openSharedStore(choice.url, use);
}

/** `status --store`: every batch of the team, and which worker holds which of its items now. */
export async function teamStatus(h: SharedStoreHandle, positionals: readonly string[], json: boolean, io: Io): Promise<ExitCode> {
  const ids = positionals.length > 0 ? await Promise.all(positionals.map((p) => h.control.resolveBatchId(p))) : null;
  const listed = await h.control.summaries(ids);
  // What redaction took out, for the batches that redact something themselves (summed from their items).
  const batches = await Promise.all(listed.map(async (b) => (redactsItself(b) ? { ...b, redacted: await h.store.redactions(b.id) } : b)));
  const [workers, up] = await Promise.all([h.store.workers(), h.store.workersUp(WORKER_SEEN_MS)]);
  if (json) {
    io.stdout.write(`${JSON.stringify({ store: h.url, batches, workers, workers_up: up }, null, 2)}\n`);
    return EXIT.ok;
  }
  const upLine = `${describeWorkersUp(up)}\n`;
  if (batches.length === 0) {
    io.stdout.write(io.carry(`No batches in the shared store yet. Create one with \`batchdesk batch create ... --store URL\`.\n${upLine}`));
    return EXIT.ok;
  }
  const out = batches.map((b) => {
    const here = workers.filter((w) => w.batch_id === b.id);
    const who = here.length === 0 ? '' : `\n  in flight on: ${here.map((w) => `${w.worker} (${w.running})`).join(', ')}`;
    const notSent = leftNotes(b.id, b.counts.queued + b.counts.retry_wait, up)
      .map((n) => `\n  ${io.carry(n)}`)
      .join('');
    return `${describeBatch(b, { shared: true, carry: io.carry })}${who}${notSent}`;
  });
  io.stdout.write(`${out.join('\n\n')}\n\n${upLine}`);
  return EXIT.ok;
}

/** "Workers up: host 412 (standing, 3 in flight), laptop 77 (idle)", or that none is. */
function describeWorkersUp(up: readonly WorkerUp[]): string {
  if (up.length === 0) return 'Workers up: none (start one with `batchdesk run --store URL`, or `run --watch --store URL` to keep one standing).';
  return `Workers up: ${up.map((w) => `${w.worker} (${workerState(w)})`).join(', ')}`;
}

/**
 * `run --store`: this computer becomes one worker of the team. The batches named (or every
 * unfinished one) are started, and it sends until nothing in them is left to anyone.
 */
export async function teamRun(
  engine: Engine,
  h: SharedStoreHandle,
  positionals: readonly string[],
  io: Io,
  apiUrl: string | null,
  dataDir: string,
  stay = false,
): Promise<ExitCode> {
  const store = h.store;
  const say = (line: string): void => void io.stderr.write(io.carry(`${line}\n`));
  // Once this worker is under way, a store that drops is waited for, as the worker's own loop does.
  const away = new StoreOutage({ clock: h.clock, logger: engine.logger, say, store: h.url });
  const ids = positionals.length > 0 ? await away.retry(() => Promise.all(positionals.map((p) => h.control.resolveBatchId(p)))) : null;
  const conn = await openConnection(engine, { apiUrl, dataDir }, io.env);
  io.stderr.write(`Worker ${h.worker} on ${h.description}: sending to ${conn.description}\n`);
  if (conn.sandbox) io.stderr.write('Note: every worker started without an API has its own embedded sandbox; give the team one with --api-url.\n');
  const unfinished = async (): Promise<BatchSummary[]> => (await h.control.summaries()).filter((b) => !isEnded(b.status));
  // A batch named comes with the steps after it (`--then`): shown, started and judged together.
  const scope = await away.retry(async () => (ids !== null ? await h.control.withPipelines(ids) : (await unfinished()).map((b) => b.id)));
  for (const id of scope) {
    const row = await away.retry(() => store.batch(id));
    // A batch scheduled for later (`--at`) starts at its time, on whichever worker is up then.
    if (row && row.started_at === null && row.scheduled_at !== null && row.scheduled_at > h.clock.now()) {
      const when = localTime(row.scheduled_at);
      io.stderr.write(
        ids !== null
          ? `Batch ${id} is scheduled for ${when}: this worker waits for it, then sends it.\n`
          : `Batch ${id} is scheduled for ${when}: left for then (a standing worker, \`run --watch --store\`, starts it).\n`,
      );
      continue;
    }
    await away.retry(() => store.start(id));
  }
  if (stay)
    io.stderr.write(
      io.carry(
        'Staying on (--watch): batches started later (`batchdesk run ID --store URL` from any computer) and resumed ones are picked up; stop with Ctrl-C or SIGTERM.\n',
      ),
    );
  const stop = onInterrupt(io, 'Stopping: any item still in flight goes back to the shared queue (same idempotency key); other workers carry on.');
  const progress = createProgress(io.stderr);
  let last: BatchSummary[] = [];
  const sample = async (): Promise<void> => {
    try {
      // A standing worker shows what is unfinished now, batches started after it included.
      last = stay && ids === null ? await unfinished() : await h.control.summaries(scope);
      progress.update(last);
    } catch {
      // The store is away: the worker says so itself; the bar waits.
    }
  };
  await sample();
  const timer = setInterval(() => void sample(), 1_000);
  let left = new Map<string, string>();
  try {
    const worker = await engine.runTeam(conn.target, h, { batchIds: ids, signal: stop.signal, stay, say });
    left = worker.left;
  } finally {
    clearInterval(timer);
    await sample();
    progress.done();
    stop.dispose();
    await conn.close();
  }
  for (const b of last)
    io.stdout.write(
      `${describeBatch(b, { shared: true, carry: io.carry })}${left.has(b.id) ? `\n  left to other workers: ${io.carry(left.get(b.id) ?? '')}` : ''}\n`,
    );
  if (stop.signal.aborted) return (stay ? standingExit(stop) : 130) as ExitCode;
  // Work is left that this computer cannot send (no key for it here): not a success of this worker.
  if (last.some((b) => left.has(b.id) && b.counts.queued + b.counts.retry_wait + b.counts.running > 0)) return EXIT.cannotRun;
  return runExit(last);
}
