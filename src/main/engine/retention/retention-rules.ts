// Which retention rule holds for a batch: its own (`batch create --keep-files-days`), else its
// pipeline's first step's, else the watched folder's that made it, else the data folder's default
// (`batchdesk config set keep_files_days N`), else none: nothing is deleted without a rule.
import type { Db } from '../db/connection';
import { Settings } from '../settings';
import type { RetentionSettingKey, RuleOrigin } from '../../../shared/retention-rules';
import { originName } from './rule-parts';

export interface RetentionRule {
  /** Days after an item finished that the files Batchdesk wrote for it go; null: kept. */
  keepFilesDays: number | null;
  /** Days after an item finished that its result text goes (the audit stays); null: kept. */
  keepResultsDays: number | null;
  /** A watched folder's own files deleted once every step of their item succeeded (chosen for that folder only). */
  deleteOriginals: boolean;
}

/** A rule and where each part comes from (null: no part of that kind), and in words: "batch b_12", "watched folder /in", "default", "none". */
export interface NamedRule extends RetentionRule {
  readonly filesOrigin: RuleOrigin | null;
  readonly resultsOrigin: RuleOrigin | null;
  readonly originalsOrigin: RuleOrigin | null;
  readonly filesFrom: string;
  readonly resultsFrom: string;
  readonly originalsFrom: string;
}

export const NO_RULE: RetentionRule = { keepFilesDays: null, keepResultsDays: null, deleteOriginals: false };

export class RetentionRules {
  private readonly stmts;
  private readonly settings: Settings;

  constructor(db: Db) {
    this.settings = new Settings(db);
    this.stmts = {
      set: db.prepare(
        `INSERT INTO retention_rules (scope, owner_id, keep_files_days, keep_results_days, delete_originals) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope, owner_id) DO UPDATE SET keep_files_days = excluded.keep_files_days, keep_results_days = excluded.keep_results_days, delete_originals = excluded.delete_originals`,
      ),
      get: db.prepare(`SELECT keep_files_days, keep_results_days, delete_originals FROM retention_rules WHERE scope = ? AND owner_id = ?`),
      remove: db.prepare(`DELETE FROM retention_rules WHERE scope = ? AND owner_id = ?`),
      anyRule: db.prepare(`SELECT 1 FROM retention_rules LIMIT 1`),
      batch: db.prepare(`SELECT pipeline_id FROM batches WHERE id = ?`),
      watchOf: db.prepare(`SELECT w.id, w.dir FROM watch_batches wb JOIN watches w ON w.id = wb.watch_id WHERE wb.batch_id = ? LIMIT 1`),
    };
  }

  /** Whether any rule or default is set at all. */
  any(): boolean {
    return this.stmts.anyRule.get() !== undefined || this.default('keep_files_days') !== null || this.default('keep_results_days') !== null;
  }

  setForBatch(batchId: string, r: Partial<RetentionRule>): void {
    this.set('batch', batchId, r);
  }

  setForWatch(watchId: string, r: Partial<RetentionRule>): void {
    this.set('watch', watchId, r);
  }

  forWatch(watchId: string): RetentionRule | null {
    return this.read('watch', watchId);
  }

  removeWatch(watchId: string): void {
    this.stmts.remove.run('watch', watchId);
  }

  /** The rule that holds for the batch, field by field from the nearest place that sets it. */
  of(batchId: string): NamedRule {
    const places: { origin: RuleOrigin; rule: RetentionRule | null }[] = [
      { origin: { who: 'batch', id: batchId, firstStep: false }, rule: this.read('batch', batchId) },
    ];
    const row = this.stmts.batch.get(batchId) as { pipeline_id: string | null } | undefined;
    const root = row?.pipeline_id ?? batchId;
    if (root !== batchId) places.push({ origin: { who: 'batch', id: root, firstStep: true }, rule: this.read('batch', root) });
    const watch = this.stmts.watchOf.get(root) as { id: string; dir: string } | undefined;
    const folder: RuleOrigin | null = watch ? { who: 'folder', dir: watch.dir } : null;
    if (watch && folder) places.push({ origin: folder, rule: this.read('watch', watch.id) });
    places.push({
      origin: { who: 'default' },
      rule: { keepFilesDays: this.default('keep_files_days'), keepResultsDays: this.default('keep_results_days'), deleteOriginals: false },
    });
    const pick = <K extends 'keepFilesDays' | 'keepResultsDays'>(k: K): { value: number | null; origin: RuleOrigin | null } => {
      for (const p of places) if (p.rule && p.rule[k] !== null) return { value: p.rule[k], origin: p.origin };
      return { value: null, origin: null };
    };
    const named = (o: RuleOrigin | null): string => (o === null ? 'none' : originName(o));
    const files = pick('keepFilesDays');
    const results = pick('keepResultsDays');
    // Originals only where they were chosen: a watched folder's own rule, never a default.
    const originals = watch ? (this.read('watch', watch.id)?.deleteOriginals ?? false) : false;
    return {
      keepFilesDays: files.value,
      keepResultsDays: results.value,
      deleteOriginals: originals,
      filesOrigin: files.origin,
      resultsOrigin: results.origin,
      originalsOrigin: folder,
      filesFrom: named(files.origin),
      resultsFrom: named(results.origin),
      originalsFrom: named(folder),
    };
  }

  /** The data folder's default rule (`batchdesk config set keep_files_days N`); null: kept. */
  defaults(): { keepFilesDays: number | null; keepResultsDays: number | null } {
    return { keepFilesDays: this.default('keep_files_days'), keepResultsDays: this.default('keep_results_days') };
  }

  private default(key: RetentionSettingKey): number | null {
    const v = Number(this.settings.get(key) ?? '0');
    return Number.isInteger(v) && v > 0 ? v : null;
  }

  private set(scope: 'batch' | 'watch', id: string, r: Partial<RetentionRule>): void {
    if (r.keepFilesDays == null && r.keepResultsDays == null && !r.deleteOriginals) return;
    this.stmts.set.run(scope, id, r.keepFilesDays ?? null, r.keepResultsDays ?? null, r.deleteOriginals ? 1 : 0);
  }

  private read(scope: 'batch' | 'watch', id: string): RetentionRule | null {
    const r = this.stmts.get.get(scope, id) as { keep_files_days: number | null; keep_results_days: number | null; delete_originals: number } | undefined;
    return r ? { keepFilesDays: r.keep_files_days, keepResultsDays: r.keep_results_days, deleteOriginals: r.delete_originals === 1 } : null;
  }
}
