// `batchdesk run --watch`: the long-running mode for servers. Takes files from every watched
// folder (those already there first) and sends whatever is started, until Ctrl-C or SIGTERM.
// Stopping loses nothing: a file not yet taken is offered again at the next start (its job and
// its hash row commit together or not at all), and requests in flight go back to the queue with
// their idempotency keys.
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { openConnection } from '../context';
import { onInterrupt, standingExit } from '../interrupt';
import type { Engine } from '../../engine/engine';
import { isEnded } from '../../../shared/domain';
import { DEFAULT_STABLE_MS, type WatchEvent } from '../../engine/watch/hot-folders';

/** How often to look for work someone else added (another process taking files, a batch started elsewhere). */
const LOOK_MS = 1_000;

export function parseSettle(text: string | undefined): number {
  if (text === undefined) return DEFAULT_STABLE_MS;
  const s = Number(text);
  if (!Number.isFinite(s) || s < 0.1 || s > 600) throw new UsageError(`--settle must be seconds between 0.1 and 600 (got "${text}").`);
  return Math.round(s * 1000);
}

/**
 * A file that keeps changing after it was sent is said once per run (with how many versions were
 * not sent so far), not once per version; `watch list` keeps its latest state. Taken again (here or
 * by `watch resend`), it is said again at its next change.
 */
export class ChangedFiles {
  private readonly said = new Set<string>();

  /** False when this file's change was already said in this run. */
  say(e: WatchEvent): boolean {
    if (e.kind === 'taken') this.said.delete(e.path);
    if (e.kind !== 'refused' || e.note.code !== 'changed_after_sent') return true;
    // The first change since it was last taken (resent, perhaps by another process) is news again.
    if (this.said.has(e.path) && e.note.versions > 1) return false;
    this.said.add(e.path);
    return true;
  }
}

export function line(e: WatchEvent): string | null {
  switch (e.kind) {
    case 'taken':
      return `+ ${e.path} -> batch ${e.batchId}, item ${e.seq}${e.created.length > 0 ? " (the day's batch, new)" : ''}\n`;
    case 'skipped':
      return `- ${e.message}\n`;
    case 'set_aside':
    case 'refused':
    case 'incomplete':
      return `! ${e.message}\n`;
    case 'gone':
    case 'passed':
      return null;
  }
}

/**
 * Says once each time a batch this run sends pauses (a day's budget reached, a revoked key...), with
 * its reason: a standing run prints only the files it takes, and a pause would go unseen.
 */
class PauseReporter {
  /** Batch id -> the pause last said (its kind and reason), or '' while it is not paused. */
  private readonly said = new Map<string, string>();

  constructor(
    private readonly engine: Engine,
    private readonly io: Io,
  ) {}

  follow(id: string): void {
    if (!this.said.has(id)) this.said.set(id, '');
  }

  async look(): Promise<void> {
    for (const [id, before] of this.said) {
      const b = await this.engine.control.summary(id);
      if (isEnded(b.status)) {
        this.said.delete(id);
        continue;
      }
      const now = b.status === 'paused' && b.pause !== null ? `${b.pause.kind}\0${b.pause.reason}` : '';
      if (now === before) continue;
      this.said.set(id, now);
      if (b.pause !== null && now !== '') this.io.stderr.write(this.io.carry(`! batch ${id} (${b.name}) paused (${b.pause.kind}): ${b.pause.reason}\n`));
    }
  }
}

export async function runWatching(engine: Engine, io: Io, apiUrl: string | null, dataDir: string, stableMs: number): Promise<ExitCode | 130> {
  const conn = await openConnection(engine, { apiUrl, dataDir }, io.env);
  let wake: (() => void) | null = null;
  const nudge = (): void => {
    wake?.();
  };
  const stop = onInterrupt(
    io,
    'Stopping: files not yet taken are taken at the next start; in-flight items go back to the queue (same idempotency keys).',
    nudge,
  );
  let session: ReturnType<Engine['hotFolders']['watch']> | null = null;
  try {
    // `run` is the user's Start: every unfinished batch is started, as `batchdesk run` does.
    const unfinished = (await engine.control.summaries()).filter((b) => !isEnded(b.status)).map((b) => b.id);
    const pauses = new PauseReporter(engine, io);
    for (const id of unfinished) pauses.follow(id);
    const folders = engine.hotFolders.list();
    io.stderr.write(`Sending to ${conn.description}\n`);
    io.stderr.write(
      io.carry(
        folders.length === 0
          ? 'No folder is watched yet (`batchdesk watch add DIR --capability ocr`); folders added while this runs are picked up.\n'
          : `Watching ${folders.length} folder(s): ${folders.map((w) => `${w.dir} (${w.steps})`).join(', ')}. Ctrl-C stops.\n`,
      ),
    );
    const changed = new ChangedFiles();
    session = engine.hotFolders.watch({
      stableMs,
      onEvent: (e) => {
        const text = changed.say(e) ? line(e) : null;
        if (text) (e.kind === 'taken' ? io.stdout : io.stderr).write(io.carry(text));
        if (e.kind === 'taken') {
          pauses.follow(e.batchId);
          nudge();
        }
      },
      onError: (m) => io.stderr.write(io.carry(`! ${m}\n`)),
    });
    // The first pass takes the data folder (one sender per folder) and recovers what a crash left running.
    await engine.run(conn.target, { signal: stop.signal, start: unfinished });
    await pauses.look();
    while (!stop.signal.aborted) {
      if (engine.hasStartedWork()) await engine.run(conn.target, { signal: stop.signal });
      await pauses.look();
      if (stop.signal.aborted) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, LOOK_MS);
        function done(): void {
          clearTimeout(t);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    await session?.close();
    stop.dispose();
    await conn.close();
  }
  return stop.signal.aborted ? standingExit(stop) : EXIT.ok;
}
