import { UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { runSpec } from '../specs/run';
import { globalOptions, openEngine, openConnection } from '../context';
import { describeBatch } from '../format';
import { createProgress } from '../progress';
import type { Engine } from '../../engine/engine';
import { isEnded, type BatchSummary } from '../../../shared/domain';
import { parseSettle, runWatching } from './run-watch';
import { onInterrupt } from '../interrupt';
import { openChosenStore, teamRun } from './team';
import { runExit } from '../run-exit';

/** Runs batches to the end and maps the outcome onto the documented exit codes. */
export async function runBatches(
  engine: Engine,
  ids: string[] | null,
  io: Io,
  apiUrl: string | null,
  dataDir: string,
  opts: { describe?: boolean } = {},
): Promise<ExitCode> {
  const conn = await openConnection(engine, { apiUrl, dataDir }, io.env);
  io.stderr.write(`Sending to ${conn.description}\n`);
  // `run` is the user's Start: the batches named, or every unfinished one, are started (and sent).
  // Naming a step of a pipeline runs (and reports) every step of it.
  const scope = ids ? await engine.control.withPipelines(ids) : (await engine.control.summaries()).filter((b) => !isEnded(b.status)).map((b) => b.id);
  const stop = onInterrupt(
    io,
    io.carry(`Stopping: in-flight items are put back in the queue (same idempotency keys). To continue: \`batchdesk run${ids ? ` ${ids.join(' ')}` : ''}\`.`),
  );
  const progress = createProgress(io.stderr);
  const snapshot = (): Promise<BatchSummary[]> => engine.control.summaries(scope);
  let timer: NodeJS.Timeout | undefined;
  let shown = false;
  try {
    let looked: () => void = () => undefined;
    const firstLook = new Promise<void>((resolve) => (looked = resolve));
    const running = engine.run(conn.target, { batchIds: ids, signal: stop.signal, start: scope, looked });
    // The first sample anchors the rate and ETA. Taken once the run has had its first look (it
    // starts the batches named and resumes those waiting for this API), so the first line does
    // not show them as not started or paused.
    await Promise.race([firstLook, running.catch(() => undefined)]);
    progress.update(await snapshot());
    timer = setInterval(() => void snapshot().then((s) => shown || progress.update(s)), 250);
    await running;
  } finally {
    clearInterval(timer);
    progress.update(await snapshot());
    // A look still under way when the run ended says nothing after the last line.
    shown = true;
    progress.done();
    stop.dispose();
    await conn.close();
  }
  const final = await snapshot();
  if (opts.describe !== false) for (const b of final) io.stdout.write(`${describeBatch(b, { carry: io.carry })}\n`);
  if (stop.signal.aborted) return 130 as ExitCode;
  return runExit(final);
}

export const runCommand = bindCommand(runSpec, async ({ values, positionals }, io) => {
  const g = globalOptions(values, io.env);
  const shared = await openChosenStore(values.store, io.env, 'worker');
  if (shared) {
    if (values.settle !== undefined) {
      await shared.store.close();
      throw new UsageError(
        "--settle is for hot folders, which fill this computer's data folder; with --store, --watch keeps the worker on for the team's batches.",
      );
    }
    const engine = openEngine(g, io);
    try {
      return await teamRun(engine, shared, positionals, io, g.apiUrl, g.dataDir, values.watch === true);
    } finally {
      engine.close();
      await shared.store.close();
    }
  }
  const engine = openEngine(g, io);
  try {
    const ids = positionals.length > 0 ? await Promise.all(positionals.map((p) => engine.control.resolveBatchId(p))) : null;
    if (values.settle !== undefined && !values.watch) throw new UsageError('--settle goes with --watch.');
    if (values.watch) {
      if (ids) throw new UsageError("run --watch sends every started batch and the watched folders' batches: give no batch ids.");
      return (await runWatching(engine, io, g.apiUrl, g.dataDir, parseSettle(values.settle))) as ExitCode;
    }
    return await runBatches(engine, ids, io, g.apiUrl, g.dataDir);
  } finally {
    engine.close();
  }
});
