// The SQL of hot folders: the watched folders, every file a watch judged (taken, skipped as a
// copy of one already taken, set aside as bad, or refused in place) and each watch's batch per
// day. A taken file's row is written in the same transaction as its job (rolling-batch.ts), so
// the unique (watch, content hash) index is what makes a file taken at most once, whatever
// restarts, renames or second processes happen.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { BatchCapability, Tier } from '../../../shared/domain';
import type { PipelineStep } from '../../../shared/capabilities/steps';
import { PipelineStep as PipelineStepSchema } from '../../../shared/capabilities/steps';
import { z } from 'zod';
import { pipelineSettings, StoredOptions, type StoredSettings } from '../../../shared/capabilities/options';
import { storedJson } from '../stored-json';
import { WatchNote } from '../../../shared/watch-notes';

export interface WatchRow {
  id: string;
  dir: string;
  capability: BatchCapability;
  tier: Tier;
  /** Lower-case extensions without the dot, comma separated; null: every file. */
  extensions: string | null;
  then_json: string | null;
  key_label: string | null;
  budget_per_day: number | null;
  /** Settings its batches keep in every step (redaction), as StoredOptions JSON; null: none. */
  options_json: string | null;
  created_at: number;
}

export interface NewWatch {
  id: string;
  dir: string;
  capability: BatchCapability;
  tier: Tier;
  extensions: readonly string[] | null;
  then: readonly PipelineStep[];
  keyLabel: string | null;
  budgetPerDay: number | null;
  /** Redaction for every step of its batches (pipelineSettings of StoredOptions). */
  settings: StoredSettings;
}

export type FileOutcome = 'taken' | 'skipped' | 'set_aside' | 'refused';

export interface FileRecord {
  watchId: string;
  sha256: string | null;
  path: string;
  size: number;
  mtimeMs: number;
  outcome: FileOutcome;
  batchId: string | null;
  seq: number | null;
  /** The English the command line prints. */
  message: string | null;
  /** The same as a code with its figures, for the window to word (null: nothing to say). */
  note: WatchNote | null;
}

export interface WatchFileRow {
  path: string;
  outcome: FileOutcome;
  message: string | null;
  batch_id: string | null;
  /** The item a taken file became (null for a file not taken). */
  seq: number | null;
  at: number;
}

/** A judged file as the faces read it: its English and its code. */
export interface WatchFileRead extends WatchFileRow {
  note: WatchNote | null;
}

// The `message` column keeps a coded file's English and code together as JSON ({"note", "words"}),
// so no schema step is needed; a plain text (written before codes) reads back as words.
const StoredMessage = z.object({ note: WatchNote, words: z.string() });

function storedMessage(message: string | null, note: WatchNote | null): string | null {
  if (message === null || note === null) return message;
  return JSON.stringify({ note, words: message });
}

function readFile(r: WatchFileRow): WatchFileRead {
  if (r.message === null) return { ...r, note: null };
  const coded = r.message.startsWith('{') ? StoredMessage.safeParse(storedJson(r.message)) : null;
  if (coded?.success) return { ...r, message: coded.data.words, note: coded.data.note };
  return { ...r, note: { code: 'words' } };
}

const StoredSteps = z.array(PipelineStepSchema);

/** The stored `--then` steps of a watch (written by this module, so a bad value is a bug). */
export function thenOf(w: WatchRow): PipelineStep[] {
  return w.then_json === null ? [] : StoredSteps.parse(JSON.parse(w.then_json));
}

/** The settings a watch's batches keep in every step (a value that cannot be read counts as none). */
export function settingsOf(w: Pick<WatchRow, 'options_json'>): StoredSettings {
  const r = StoredOptions.safeParse(storedJson(w.options_json) ?? {});
  return r.success ? pipelineSettings(r.data) : {};
}

export function extensionsOf(w: WatchRow): string[] | null {
  return w.extensions === null ? null : w.extensions.split(',').filter((e) => e.length > 0);
}

export class WatchStore {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO watches (id, dir, capability, tier, extensions, then_json, key_label, budget_per_day, options_json, created_at)
         VALUES (@id, @dir, @capability, @tier, @extensions, @then, @key, @budget, @options, @now)`,
      ),
      list: db.prepare(`SELECT * FROM watches ORDER BY created_at, id`),
      get: db.prepare(`SELECT * FROM watches WHERE id = ?`),
      byDir: db.prepare(`SELECT * FROM watches WHERE dir = ?`),
      remove: db.prepare(`DELETE FROM watches WHERE id = ?`),
      // Same path, size and modification time as a file already judged: nothing to read again.
      seen: db.prepare(`SELECT 1 FROM watch_files WHERE watch_id = ? AND path = ? AND size = ? AND mtime_ms = ? LIMIT 1`),
      taken: db.prepare(`SELECT path, batch_id, at FROM watch_files WHERE watch_id = ? AND sha256 = ? AND outcome = 'taken'`),
      takenAt: db.prepare(
        `SELECT sha256, batch_id, at FROM watch_files WHERE watch_id = ? AND path = ? AND outcome = 'taken' ORDER BY at DESC, id DESC LIMIT 1`,
      ),
      record: db.prepare(
        `INSERT INTO watch_files (watch_id, sha256, path, size, mtime_ms, outcome, batch_id, seq, message, at)
         VALUES (@watchId, @sha256, @path, @size, @mtimeMs, @outcome, @batchId, @seq, @message, @now)`,
      ),
      takenSince: db.prepare(`SELECT COUNT(*) AS n FROM watch_files WHERE watch_id = ? AND outcome = 'taken' AND at >= ?`),
      lastTaken: db.prepare(
        `SELECT path, outcome, message, batch_id, seq, at FROM watch_files WHERE watch_id = ? AND outcome = 'taken' ORDER BY at DESC, id DESC LIMIT 1`,
      ),
      // A file's latest state only: a file resent since it was reported, or reported again and again
      // as it changed, is one row (or none), not one per version.
      latest: db.prepare(
        `SELECT path, outcome, message, batch_id, seq, at FROM watch_files f
         WHERE watch_id = @watch AND outcome IN (@a, @b)
           AND id = (SELECT MAX(id) FROM watch_files g WHERE g.watch_id = f.watch_id AND g.path = f.path)
         ORDER BY at DESC, id DESC LIMIT @limit`,
      ),
      // What was said of a path since it was last taken (every version reported as changed).
      sinceTaken: db.prepare(
        `SELECT path, outcome, message, batch_id, seq, at FROM watch_files
         WHERE watch_id = @watch AND path = @path AND outcome = 'refused'
           AND id > COALESCE((SELECT MAX(id) FROM watch_files WHERE watch_id = @watch AND path = @path AND outcome = 'taken'), 0)`,
      ),
      dayBatch: db.prepare(
        `SELECT wb.batch_id AS id FROM watch_batches wb JOIN batches b ON b.id = wb.batch_id
         WHERE wb.watch_id = ? AND wb.day = ? AND b.status <> 'cancelled' AND b.ready = 1 ORDER BY wb.created_at DESC LIMIT 1`,
      ),
      takesFiles: db.prepare(`SELECT 1 FROM watch_batches WHERE batch_id = ? AND day = ?`),
      madeBatch: db.prepare(`SELECT 1 FROM watch_batches WHERE batch_id = ? LIMIT 1`),
      madeBy: db.prepare(`SELECT w.dir FROM watch_batches b JOIN watches w ON w.id = b.watch_id WHERE b.batch_id = ? LIMIT 1`),
      dayBatchCount: db.prepare(`SELECT COUNT(*) AS n FROM watch_batches WHERE watch_id = ? AND day = ?`),
      addDayBatch: db.prepare(`INSERT INTO watch_batches (watch_id, day, batch_id, created_at) VALUES (?, ?, ?, ?)`),
      nextSeq: db.prepare(`SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM jobs WHERE batch_id = ?`),
      countJob: db.prepare(
        `UPDATE batches SET total = total + 1, estimated_units = estimated_units + @units, estimated_cost = estimated_cost + @cost, updated_at = @now WHERE id = @id`,
      ),
    };
  }

  insert(w: NewWatch): void {
    this.stmts.insert.run({
      id: w.id,
      dir: w.dir,
      capability: w.capability,
      tier: w.tier,
      extensions: w.extensions === null ? null : w.extensions.join(','),
      then: w.then.length === 0 ? null : JSON.stringify(w.then),
      key: w.keyLabel,
      budget: w.budgetPerDay,
      options: Object.keys(w.settings).length === 0 ? null : JSON.stringify(w.settings),
      now: this.clock.now(),
    });
  }

  list(): WatchRow[] {
    return this.stmts.list.all() as WatchRow[];
  }

  get(id: string): WatchRow | undefined {
    return this.stmts.get.get(id) as WatchRow | undefined;
  }

  byDir(dir: string): WatchRow | undefined {
    return this.stmts.byDir.get(dir) as WatchRow | undefined;
  }

  /** Removes the watch with what it judged (its batches stay, with their jobs and history). */
  remove(id: string): boolean {
    return this.stmts.remove.run(id).changes === 1;
  }

  seen(watchId: string, path: string, size: number, mtimeMs: number): boolean {
    return this.stmts.seen.get(watchId, path, size, Math.trunc(mtimeMs)) !== undefined;
  }

  /** The file this watch already took with this content, if any. */
  taken(watchId: string, sha256: string): { path: string; batch_id: string | null; at: number } | undefined {
    return this.stmts.taken.get(watchId, sha256) as { path: string; batch_id: string | null; at: number } | undefined;
  }

  /** The version of the file at `path` this watch took last, if it took one. */
  takenAt(watchId: string, path: string): { sha256: string; batch_id: string | null; at: number } | undefined {
    return this.stmts.takenAt.get(watchId, path) as { sha256: string; batch_id: string | null; at: number } | undefined;
  }

  record(r: FileRecord): void {
    const { note, ...row } = r;
    this.stmts.record.run({ ...row, message: storedMessage(r.message, note), mtimeMs: Math.trunc(r.mtimeMs), now: this.clock.now() });
  }

  takenSince(watchId: string, since: number): number {
    return (this.stmts.takenSince.get(watchId, since) as { n: number }).n;
  }

  lastTaken(watchId: string): WatchFileRead | undefined {
    const r = this.stmts.lastTaken.get(watchId) as WatchFileRow | undefined;
    return r ? readFile(r) : undefined;
  }

  /**
   * Files whose latest state is a problem (set aside, refused), or a skip, newest first, one row a
   * file; `limit` null: every one.
   */
  latest(watchId: string, kind: 'problems' | 'skipped', limit: number | null): WatchFileRead[] {
    const [a, b] = kind === 'problems' ? ['set_aside', 'refused'] : ['skipped', 'skipped'];
    return (this.stmts.latest.all({ watch: watchId, a, b, limit: limit ?? -1 }) as WatchFileRow[]).map(readFile);
  }

  /** How many versions of the file at `path` were reported as changed since it was last taken. */
  changedSinceTaken(watchId: string, path: string): number {
    return (this.stmts.sinceTaken.all({ watch: watchId, path }) as WatchFileRow[]).map(readFile).filter((r) => r.note?.code === 'changed_after_sent').length;
  }

  /** The watch's live (not cancelled) batch of the day, if one was made. */
  /** True when the batch is a watched folder's batch of `day`: the folder's next files that day go to it. */
  takesFiles(batchId: string, day: string): boolean {
    return this.stmts.takesFiles.get(batchId, day) !== undefined;
  }

  /** True when a watched folder made the batch (its items are files that folder took). */
  madeBatch(batchId: string): boolean {
    return this.stmts.madeBatch.get(batchId) !== undefined;
  }

  /** The folder of the watch that made this batch; null for a batch made otherwise (or whose watch was removed). */
  madeBy(batchId: string): string | null {
    return (this.stmts.madeBy.get(batchId) as { dir: string } | undefined)?.dir ?? null;
  }

  dayBatch(watchId: string, day: string): string | null {
    return (this.stmts.dayBatch.get(watchId, day) as { id: string } | undefined)?.id ?? null;
  }

  /** How many batches the watch made that day (a cancelled one is replaced by a numbered one). */
  dayBatchCount(watchId: string, day: string): number {
    return (this.stmts.dayBatchCount.get(watchId, day) as { n: number }).n;
  }

  addDayBatch(watchId: string, day: string, batchId: string): void {
    this.stmts.addDayBatch.run(watchId, day, batchId, this.clock.now());
  }

  /** The next item number of a batch (appending keeps `UNIQUE (batch_id, seq)`). */
  nextSeq(batchId: string): number {
    return (this.stmts.nextSeq.get(batchId) as { seq: number }).seq;
  }

  /** An appended job counts in its batch's total and estimate (its state counters are kept by triggers). */
  countJob(batchId: string, units: number, cost: number): void {
    this.stmts.countJob.run({ id: batchId, units, cost, now: this.clock.now() });
  }

  /** Runs `fn` in one IMMEDIATE transaction: the check and the write cannot interleave with another process. */
  immediate<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
