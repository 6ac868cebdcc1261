// Writes the new jobs of an import in chunks, each in one transaction (unsealed-write.ts), ROWS
// jobs per INSERT statement: each statement costs its own setup (binding, a statement journal
// for the triggers on `jobs`), and one statement per job spent more on that than on the rows
// (64 rows per statement take about a third less time). The row written is exactly
// JobStore.insertJobs's (same columns and values: state 'queued', run_at = created_at =
// updated_at = now); keep the two in step.
//
// While importing, the page cache is held to 8 MiB: pages of new jobs are written once and never
// read again, so a full 32 MiB cache only adds to the process's memory. (It used to grow with the
// import, for the fingerprint index read at random; since migration 17 an import's fingerprints
// enter only at the seal, and the fixed size measured as fast, with less memory.) `finish` puts
// the connection's own size back.
import type { Db } from '../db/connection';
import { unsealedWrite } from '../db/unsealed-write';
import type { JobStore, NewJob } from './job-store';

export const ROWS = 64;
const COLUMNS = `(batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body, estimated_units, estimated_cost, run_at, created_at, updated_at)`;
const VALUES = `(?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const PER_ROW = 12;
/** Page cache while importing, in KiB (cache_size in KiB is negative). */
export const IMPORT_CACHE_KIB = 8 * 1024;

/** The INSERT of `rows` jobs, PER_ROW values each, in the order `write` binds them. */
export function insertSql(rows: number): string {
  return `INSERT INTO jobs ${COLUMNS} VALUES ${Array.from({ length: rows }, () => VALUES).join(', ')}`;
}

export class JobChunkWriter {
  private readonly many;
  private readonly values: unknown[] = new Array<unknown>(ROWS * PER_ROW).fill(null);
  /** The connection's cache_size, put back by `finish` (negative: KiB; positive: pages). */
  private readonly cacheSize: number;
  /** The import's cache_size: IMPORT_CACHE_KIB, or the connection's own when that is smaller. */
  private readonly importCacheSize: number;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly now: () => number,
  ) {
    this.many = db.prepare(insertSql(ROWS));
    this.cacheSize = Number(db.pragma('cache_size', { simple: true }));
    const ownKib = this.cacheSize < 0 ? -this.cacheSize : (this.cacheSize * Number(db.pragma('page_size', { simple: true }))) / 1024;
    this.importCacheSize = -Math.min(ownKib, IMPORT_CACHE_KIB);
  }

  /** Adds `jobs` to the batch in one transaction (all or none). */
  write(batchId: string, jobs: readonly NewJob[]): void {
    this.holdCache();
    unsealedWrite(this.db, () => {
      const now = this.now();
      const v = this.values;
      let i = 0;
      for (; i + ROWS <= jobs.length; i += ROWS) {
        for (let r = 0; r < ROWS; r++) {
          const j = jobs[i + r] as NewJob;
          const o = r * PER_ROW;
          v[o] = batchId;
          v[o + 1] = j.seq;
          v[o + 2] = j.idempotencyKey;
          v[o + 3] = j.fingerprint;
          v[o + 4] = j.source;
          v[o + 5] = j.payloadJson;
          v[o + 6] = j.requestBody;
          v[o + 7] = j.estimatedUnits;
          v[o + 8] = j.estimatedCost;
          v[o + 9] = now;
          v[o + 10] = now;
          v[o + 11] = now;
        }
        this.many.run(v);
      }
      v.fill(null);
      // The rest (fewer than ROWS) one by one.
      if (i < jobs.length) this.jobs.insertJobs(batchId, jobs.slice(i));
    });
  }

  /**
   * Runs `fn` (the seal) with the import's page cache: sealing reads every job of the import once
   * (its fingerprints enter job_fingerprints, sorted), and in the connection's 32 MiB cache those
   * pages, never read again, added about 20 MB to a 100,000-row create.
   */
  withImportCache<T>(fn: () => T): T {
    this.holdCache();
    try {
      return fn();
    } finally {
      this.finish();
    }
  }

  /** Gives the connection its own cache size back. */
  finish(): void {
    this.db.pragma(`cache_size = ${this.cacheSize}`);
  }

  private holdCache(): void {
    this.db.pragma(`cache_size = ${this.importCacheSize}`);
  }
}
