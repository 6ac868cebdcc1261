import { UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { bindCommand } from '../bind-command';
import { runSpec } from '../specs/run';
import { globalOptions, openConnection } from '../context';
import { statusWords, withStatusFacts } from '../batch-status';
import { createProgress } from '../progress';
import { EXIT } from '../exit-codes';
import { isEnded, type BatchSummary } from '../../../shared/domain';
import { parseSettle, runWatching } from './run-watch';
import { onInterrupt, standingExit } from '../interrupt';
import { runExit } from '../run-exit';
import { openCliDesk } from '../desk';
import type { Desk } from '../../desk/desk';
import { leftLines } from '../confirm-spend';

/**
 * Sends batches to the end and maps the outcome onto the documented exit codes: the batches named
 * (with every step of their pipelines) or every unfinished one, started first. `stay`: stays on for
 * batches started later (a standing worker of a team's store).
 */
export async function runBatches(
  desk: Desk,
  ids: string[] | null,
  io: Io,
  g: { apiUrl: string | null; dataDir: string },
  opts: { describe?: boolean; stay?: boolean; announce?: boolean } = {},
): Promise<ExitCode> {
  const say = (line: string): void => void io.stderr.write(io.carry(`${line}\n`));
  const c = desk.control;
  const conn = await openConnection(desk.engine(), g, io.env);
  io.stderr.write(`${desk.sendingWords({ description: conn.description, sandbox: conn.sandbox !== null })}\n`);
  const unfinished = async (): Promise<BatchSummary[]> => (await c.summaries()).filter((b) => !isEnded(b.status));
  // `run` is the user's Start: naming a step of a pipeline runs (and reports) every step of it.
  const scope = await desk.patiently(async () => (ids ? await c.withPipelines(ids) : (await unfinished()).map((b) => b.id)), say);
  // `run` is the answer to the estimate `batch create` printed, so it does not ask; it says what it
  // is about to send, a batch created long ago or with --json included.
  if (opts.announce === true) for (const line of await desk.patiently(() => aboutToSend(desk, scope), say)) io.stderr.write(io.carry(`${line}\n`));
  const stop = onInterrupt(
    io,
    io.carry(
      `Stopping: in-flight items are put back in the queue (same idempotency keys). To continue: \`batchdesk run${ids ? ` ${ids.join(' ')}` : ''}${desk.storeFlag}\`.`,
    ),
  );
  const progress = createProgress(io.stderr);
  // A standing sender shows what is unfinished now, batches started after it included.
  const snapshot = (): Promise<BatchSummary[]> => (opts.stay && ids === null ? unfinished() : c.summaries(scope));
  let last: BatchSummary[] = [];
  let shown = false;
  const sample = async (): Promise<void> => {
    try {
      last = await snapshot();
      if (!shown) progress.update(last);
    } catch {
      // The store is away: the sender says so itself; the bar waits.
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let left = new Map<string, string>();
  try {
    let looked: () => void = () => undefined;
    const firstLook = new Promise<void>((resolve) => (looked = resolve));
    const sending = desk.send(conn.target, { batchIds: ids, scope, signal: stop.signal, stay: opts.stay === true, say, looked });
    // The first sample anchors the rate and ETA: taken once the batches are started, so the first
    // line does not show them as not started or paused.
    await Promise.race([firstLook, sending.catch(() => undefined)]);
    await sample();
    timer = setInterval(() => void sample(), desk.sampleMs);
    left = await sending;
  } finally {
    clearInterval(timer);
    await sample();
    // A look still under way when the run ended says nothing after the last line.
    shown = true;
    progress.done();
    stop.dispose();
    await conn.close();
  }
  if (opts.describe !== false && last.length > 0) {
    // The same words as `status` for these batches, with what this run left to other senders.
    const batches = await desk.patiently(() => withStatusFacts(desk, last), say);
    const workers = await desk.patiently(() => desk.workers(), say);
    const leftLine = (b: BatchSummary): string => (left.has(b.id) ? `\n  left to other workers: ${io.carry(left.get(b.id) ?? '')}` : '');
    io.stdout.write(`${await desk.patiently(() => statusWords(desk, batches, io, workers, leftLine), say)}\n`);
  }
  if (stop.signal.aborted) return (opts.stay ? standingExit(stop) : 130) as ExitCode;
  // Work is left that this computer cannot send (no key for it here): not a success of this sender.
  if (last.some((b) => left.has(b.id) && b.counts.queued + b.counts.retry_wait + b.counts.running > 0)) return EXIT.cannotRun;
  return runExit(last);
}

/** What is left to send of the batches in scope, a pipeline once; nothing for those with nothing left. */
async function aboutToSend(desk: Desk, scope: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const id of scope) {
    if (seen.has(id)) continue;
    const left = await desk.control.leftToSend(id);
    for (const s of left.steps) seen.add(s.id);
    const l = leftLines(left);
    if (l.items > 0) lines.push(...l.lines);
  }
  return lines;
}

export const runCommand = bindCommand(runSpec, async ({ values, positionals }, io) => {
  const g = globalOptions(values, io.env);
  const desk = await openCliDesk(values, io, { use: 'worker' });
  try {
    const say = (line: string): void => void io.stderr.write(io.carry(`${line}\n`));
    const ids = positionals.length > 0 ? await desk.patiently(() => Promise.all(positionals.map((p) => desk.control.resolveBatchId(p))), say) : null;
    if (values.settle !== undefined && !values.watch) throw new UsageError('--settle goes with --watch.');
    if (values.watch && desk.watchesFolders) {
      if (ids) throw new UsageError("run --watch sends every started batch and the watched folders' batches: give no batch ids.");
      return (await runWatching(desk.engine(), io, g.apiUrl, g.dataDir, parseSettle(values.settle))) as ExitCode;
    }
    if (values.settle !== undefined)
      throw new UsageError(
        `--settle is for hot folders, which fill this computer's data folder; on ${desk.description}, --watch keeps the worker on for its batches.`,
      );
    return await runBatches(desk, ids, io, g, { stay: values.watch === true, announce: values.watch !== true });
  } finally {
    await desk.close();
  }
});
