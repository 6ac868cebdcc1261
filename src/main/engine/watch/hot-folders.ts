// Hot folders: what the faces call. `add`, `list` and `remove` keep the watches (watch-store);
// `watch()` runs a FolderWatcher per stored watch while a long-running face is up (the desktop
// app, the browser host, `batchdesk run --watch`) and feeds each ready file, one at a time per
// folder, to take-file. Watches added or removed elsewhere (another process) are picked up by a
// look at the store every few seconds.
import { existsSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import { UserError, NotFoundError } from '../user-error';
import { describe } from '../../../shared/capabilities/catalog';
import { chainProblem } from '../../../shared/capabilities/steps';
import { WatchAdd, type WatchView } from '../../../shared/contract';
import { FolderWatcher } from './folder-watcher';
import { dayOf, isWatchable, startOfDay, WATCHABLE_CAPABILITIES } from './intake-rules';
import { extensionsOf, settingsOf, thenOf, type WatchRow, type WatchStore, type WatchFileRead } from './watch-store';
import { incompleteEnglish, type WatchNote } from '../../../shared/watch-notes';
import { watchSteps, type ChooseKey, type RollingBatches } from './rolling-batch';
import { takeFile, type Intake, type TakeFileDeps } from './take-file';
import type { SourceOrigin } from '../queue/verify-source';

/**
 * What a watching face is told, file by file (the CLI prints it, the window refreshes): an intake,
 * or a file that held still but is not whole by its format (said once per version of it).
 */
export type WatchEvent = (Intake | { kind: 'incomplete'; path: string; message: string; note: WatchNote }) & { watch: { id: string; dir: string } };

export interface HotFoldersDeps {
  store: WatchStore;
  rolling: RollingBatches;
  intake: Omit<TakeFileDeps, 'store' | 'rolling' | 'signal'>;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  keyChooser: (label: string | undefined) => ChooseKey;
  /** Batches that got an item (or were made): change notices for the faces. */
  changed: (batchId: string) => void;
}

export interface WatchOptions {
  /** How long a file's size and mtime must hold still before it is taken (default 3 s). */
  stableMs?: number;
  usePolling?: boolean;
  /** How often the stored watches are compared with the running ones (default 5 s). */
  syncMs?: number;
  onEvent?: (e: WatchEvent) => void;
  onError?: (message: string) => void;
}

export const DEFAULT_STABLE_MS = 3_000;
const RECENT = 20;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function fileView(r: WatchFileRead): NonNullable<WatchView['lastFile']> {
  return { path: r.path, message: r.message, note: r.note, at: iso(r.at), batch: r.batch_id, seq: r.seq };
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export class HotFolders {
  /** The sessions watching now: what their folders' files wait for is listed with the folders. */
  private readonly sessions = new Set<WatchSession>();

  constructor(private readonly d: HotFoldersDeps) {}

  /** Stores a watch after checking everything a file would otherwise fail on later. */
  add(input: WatchAdd): WatchView {
    const r = WatchAdd.parse(input);
    if (!isWatchable(r.capability)) {
      throw new UserError(
        `${r.capability} does not take files, so a folder cannot feed it: a watched folder is for ${WATCHABLE_CAPABILITIES.join(' or ')}. For ${r.capability}, create a batch from a CSV or TXT file (\`batchdesk batch create ${r.capability} FILE\`).`,
        { code: 'watch_capability', capability: r.capability },
      );
    }
    const dir = resolve(r.dir);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      throw new UserError(`${dir} does not exist (or cannot be read): create the folder first, or give another one.`, {
        code: 'watch_folder',
        dir,
        why: 'missing',
      });
    }
    if (!isDir)
      throw new UserError(`${dir} is a file, not a folder: give the folder the files will be dropped into.`, { code: 'watch_folder', dir, why: 'not_folder' });
    const data = resolve(this.d.dataDir);
    if (inside(data, dir) || inside(dir, data)) {
      throw new UserError(
        `${dir} ${inside(data, dir) ? 'is inside' : 'contains'} Batchdesk's data folder (${data}), where results are written: watch another folder.`,
        { code: 'watch_folder', dir, why: 'data_folder' },
      );
    }
    for (const w of this.d.store.list()) {
      if (w.dir === dir)
        throw new UserError(
          `${dir} is already watched (${w.id}, ${watchSteps(w)}). Remove it first (\`batchdesk watch remove ${w.id}\`) to change how it is processed.`,
          { code: 'watch_folder', dir, why: 'watched' },
        );
      if (inside(w.dir, dir) || inside(dir, w.dir)) {
        throw new UserError(
          `${dir} ${inside(w.dir, dir) ? 'is inside' : 'contains'} the watched folder ${w.dir} (${w.id}): a file there would be taken twice. Watch one of them only.`,
          { code: 'watch_folder', dir, why: 'nested', other: w.dir },
        );
      }
    }
    let prev = r.capability;
    for (const [i, step] of (r.then ?? []).entries()) {
      const problem = chainProblem(prev, step.capability);
      if (problem)
        throw new UserError(`step ${i + 2} (${step.capability}): ${problem}`, { code: 'watch_step', step: i + 2, capability: step.capability, after: prev });
      prev = step.capability;
    }
    // An unknown or wrong-kind key is refused now, not at the first file.
    this.d.keyChooser(r.key)(describe(r.capability).credential, true);
    const id = `w${randomBytes(4).toString('hex')}`;
    this.d.store.insert({
      id,
      dir,
      capability: r.capability,
      tier: r.tier,
      extensions: r.extensions && r.extensions.length > 0 ? [...new Set(r.extensions)] : null,
      then: r.then ?? [],
      keyLabel: r.key ?? null,
      budgetPerDay: r.budgetPerDay,
      settings: {
        ...(r.redact !== undefined ? { redact: r.redact } : {}),
        ...(r.redactStored !== undefined ? { redactStored: r.redactStored } : {}),
      },
    });
    this.d.logger.log('info', 'watch.added', { watch: id, capability: r.capability });
    const row = this.d.store.get(id);
    if (!row) throw new Error(`watch ${id} vanished after insert`);
    return this.view(row);
  }

  /** True when one of the batches is a watched folder's batch of today: the folder's next files go to it, even once it has nothing left. */
  takesFilesToday(batchIds: readonly string[]): boolean {
    const day = dayOf(this.d.clock.now());
    return batchIds.some((id) => this.d.store.takesFiles(id, day));
  }

  /** The watched folder a batch's items came from (a team's store keeps it when the batch moves there); null: none. */
  watchDirOf(batchId: string): string | null {
    return this.d.store.madeBy(batchId);
  }

  /** Whether a batch's items came from a watched folder (a changed file is then sent with `watch resend`). */
  originOf(batchId: string): SourceOrigin {
    return this.d.store.madeBatch(batchId) ? 'watch' : 'batch';
  }

  list(): WatchView[] {
    return this.d.store.list().map((w) => this.view(w));
  }

  /** By id, or by its folder (as typed: resolved against the current folder). */
  find(idOrDir: string): WatchRow {
    const w = this.d.store.get(idOrDir) ?? this.d.store.byDir(resolve(idOrDir));
    if (!w) throw new NotFoundError(`No watched folder "${idOrDir}". \`batchdesk watch list\` shows them.`, { code: 'no_watch', watch: idOrDir });
    return w;
  }

  /**
   * Sends the version of a watched folder's file that is there now, although an earlier version of
   * it was sent (a file that changed after it was taken is otherwise only reported). The same
   * content as a file already taken is still skipped.
   */
  async resend(file: string): Promise<Intake> {
    const path = resolve(file);
    const w = this.d.store.list().find((row) => inside(row.dir, path) && row.dir !== path);
    if (!w)
      throw new NotFoundError(
        `${path} is not in a watched folder. \`batchdesk watch list\` shows them; a file elsewhere goes in a batch of its own (\`batchdesk batch create\`).`,
        // From the window: its folder was removed meanwhile, so the folder no longer takes it.
        { code: 'resend_gone', path },
      );
    const outcome = await takeFile({ ...this.d.intake, store: this.d.store, rolling: this.d.rolling }, w, path, { resend: true });
    if (outcome.kind === 'taken') for (const id of [...outcome.created, outcome.batchId]) this.d.changed(id);
    return outcome;
  }

  /** Stops watching (its batches stay, and are still sent). */
  remove(idOrDir: string): WatchRow {
    const w = this.find(idOrDir);
    this.d.store.remove(w.id);
    this.d.logger.log('info', 'watch.removed', { watch: w.id });
    return w;
  }

  view(w: WatchRow): WatchView {
    const now = this.d.clock.now();
    return {
      id: w.id,
      dir: w.dir,
      capability: w.capability,
      tier: w.tier,
      extensions: extensionsOf(w),
      steps: watchSteps(w),
      then: thenOf(w),
      key: w.key_label,
      budgetPerDay: w.budget_per_day,
      redact: settingsOf(w).redact ?? null,
      redactStored: settingsOf(w).redactStored === true,
      // The folder's retention rule is kept by engine/retention (retention_rules); the service adds it.
      keepFilesDays: null,
      keepResultsDays: null,
      deleteOriginals: false,
      takenToday: this.d.store.takenSince(w.id, startOfDay(now)),
      lastFile: ((r) => (r ? fileView(r) : null))(this.d.store.lastTaken(w.id)),
      todayBatch: this.d.store.dayBatch(w.id, dayOf(now)),
      // Every file with a problem is listed (a count that hides some would mislead); skips are only told.
      problems: this.d.store.latest(w.id, 'problems', null).map(fileView),
      skipped: this.d.store.latest(w.id, 'skipped', RECENT).map(fileView),
      waiting: [...this.sessions].flatMap((s) => s.waitingIn(w.id)).sort((a, b) => b.at.localeCompare(a.at)),
    };
  }

  /** Watches every stored folder until `close()`; `ready` resolves once each first scan is done. */
  watch(opts: WatchOptions = {}): WatchSession {
    const session = new WatchSession(this.d, opts, () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }
}

interface Running {
  row: WatchRow;
  watcher: FolderWatcher;
  /** One file at a time per folder: the intake of a folder is a queue. */
  queue: Promise<void>;
}

type WaitingFile = NonNullable<WatchView['lastFile']>;

export class WatchSession {
  private readonly running = new Map<string, Running>();
  /** By watch, then path: the files said not to be taken yet, until taken or gone (FolderWatcher says each once per version). */
  private readonly notTaken = new Map<string, Map<string, WaitingFile>>();
  private readonly abort = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Resolves once every folder watched at the start has been scanned once. */
  readonly ready: Promise<void>;

  constructor(
    private readonly d: HotFoldersDeps,
    private readonly opts: WatchOptions,
    private readonly onClose: () => void = () => undefined,
  ) {
    this.ready = this.sync();
    this.timer = setInterval(() => void this.sync(), opts.syncMs ?? 5_000);
    this.timer.unref();
  }

  /** Starts watchers for new watches and stops those of removed ones. */
  async sync(): Promise<void> {
    if (this.closed) return;
    const stored = new Map(this.d.store.list().map((w) => [w.id, w] as const));
    const stops: Promise<void>[] = [];
    for (const [id, r] of this.running) {
      if (!stored.has(id)) {
        this.running.delete(id);
        this.notTaken.delete(id);
        stops.push(r.watcher.close());
      }
    }
    const starts: Promise<void>[] = [];
    for (const [id, row] of stored) {
      if (this.running.has(id)) continue;
      const entry: Running = {
        row,
        queue: Promise.resolve(),
        watcher: new FolderWatcher(row.dir, {
          stableMs: this.opts.stableMs ?? DEFAULT_STABLE_MS,
          usePolling: this.opts.usePolling,
          onReady: (path) => {
            // Whole and closed now: no longer waiting, whatever its intake makes of it.
            this.notTaken.get(row.id)?.delete(path);
            this.enqueue(entry, path);
          },
          onIncomplete: (path, why) => {
            const message = incompleteEnglish(path, why);
            this.d.logger.log('warn', 'watch.incomplete', { watch: row.id, message });
            const note: WatchNote = { code: 'incomplete', why };
            const files = this.notTaken.get(row.id) ?? new Map<string, WaitingFile>();
            files.set(path, { path, message, note, at: iso(this.d.clock.now()), batch: null, seq: null });
            this.notTaken.set(row.id, files);
            this.opts.onEvent?.({ kind: 'incomplete', path, message, note, watch: { id: row.id, dir: row.dir } });
          },
          onError: (m) => this.error(m),
        }),
      };
      this.running.set(id, entry);
      starts.push(entry.watcher.start().catch((e: unknown) => this.error(`${row.dir}: ${e instanceof Error ? e.message : String(e)}`)));
    }
    await Promise.all([...stops, ...starts]);
  }

  private enqueue(r: Running, path: string): void {
    r.queue = r.queue.then(async () => {
      if (this.closed || this.running.get(r.row.id) !== r) return;
      try {
        const e = await takeFile({ ...this.d.intake, store: this.d.store, rolling: this.d.rolling, signal: this.abort.signal }, r.row, path);
        if (e.kind === 'passed') return;
        if (e.kind === 'taken') for (const id of [...e.created, e.batchId]) this.d.changed(id);
        this.d.logger.log(e.kind === 'taken' || e.kind === 'gone' ? 'info' : 'warn', `watch.${e.kind}`, { watch: r.row.id });
        this.opts.onEvent?.({ ...e, watch: { id: r.row.id, dir: r.row.dir } });
      } catch (e) {
        if (this.abort.signal.aborted) return; // stopping: the file is offered again at the next start
        this.error(`${path}: ${e instanceof Error ? e.message : String(e)}; it is tried again at the next start.`);
      }
    });
  }

  private error(message: string): void {
    this.d.logger.log('warn', 'watch.error', { message });
    this.opts.onError?.(message);
  }

  /**
   * A folder's files not taken yet, with why. One deleted while it waited is dropped here (the
   * watcher forgets it without a word).
   */
  waitingIn(watchId: string): WaitingFile[] {
    const files = this.notTaken.get(watchId);
    if (!files) return [];
    for (const path of [...files.keys()]) if (!existsSync(path)) files.delete(path);
    return [...files.values()];
  }

  /** Files seen but not quiet long enough yet, over every folder. */
  get waiting(): number {
    let n = 0;
    for (const r of this.running.values()) n += r.watcher.waiting;
    return n;
  }

  /** Stops watching; a file being read is dropped (nothing of it was written) and offered again at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.onClose();
    this.notTaken.clear();
    clearInterval(this.timer);
    this.abort.abort();
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((r) => r.watcher.close()));
    await Promise.all(all.map((r) => r.queue));
  }
}
