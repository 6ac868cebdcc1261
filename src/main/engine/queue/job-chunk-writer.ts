// Writes the new jobs of an import in chunks, each in one transaction (unsealed-write.ts), ROWS
// jobs per INSERT statement and the chunk's rest in one statement of its size: each statement
// costs its own setup (binding, a statement journal for the triggers on `jobs`), and one statement
// per job spent more on that than on the rows (64 rows per statement took about a third less
// time; 256, with the rest in one statement instead of one by one, another 13% less than 64: no
// gain past 256 in docs/performance.md's tenth round). The row written is exactly
// JobStore.insertJobs's (same columns and values: state 'queued', run_at = created_at =
// updated_at = now); keep the two in step.
//
// While importing, the page cache is held to 8 MiB: pages of new jobs are written once and never
// read again, so a full 32 MiB cache only adds to the process's memory. (It used to grow with the
// import, for the fingerprint index read at random; since migration 17 an import's fingerprints
// enter only at the seal, and the fixed size measured as fast, with less memory.) `finish` puts
// the connection's own size back.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection';
import { unsealedWrite } from '../db/unsealed-write';
import type { NewJob } from './job-store';

export const ROWS = 256;
/** An INSERT of n jobs is INSERT_HEAD followed by n VALUES_ROWs joined with ', ' (insertSql). */
export const INSERT_HEAD = `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body, estimated_units, estimated_cost, run_at, created_at, updated_at) VALUES `;
export const VALUES_ROW = `(?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const PER_ROW = 12;
/** Page cache while importing, in KiB (cache_size in KiB is negative). */
export const IMPORT_CACHE_KIB = 8 * 1024;

/** The INSERT of `rows` jobs, PER_ROW values each, in the order `write` binds them. */
function insertSql(rows: number): string {
  return INSERT_HEAD + new Array<string>(rows).fill(VALUES_ROW).join(', ');
}

export class JobChunkWriter {
  /** INSERTs by their number of rows, prepared on first use: ROWS, and each size of rest a chunk leaves. */
  private readonly inserts = new Map<number, Statement>();
  private readonly values: unknown[] = new Array<unknown>(ROWS * PER_ROW).fill(null);
  /** The connection's cache_size, put back by `finish` (negative: KiB; positive: pages). */
  private readonly cacheSize: number;
  /** The import's cache_size: IMPORT_CACHE_KIB, or the connection's own when that is smaller. */
  private readonly importCacheSize: number;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.cacheSize = Number(db.pragma('cache_size', { simple: true }));
    const ownKib = this.cacheSize < 0 ? -this.cacheSize : (this.cacheSize * Number(db.pragma('page_size', { simple: true }))) / 1024;
    this.importCacheSize = -Math.min(ownKib, IMPORT_CACHE_KIB);
  }

  /** Adds `jobs` to the batch in one transaction (all or none). */
  write(batchId: string, jobs: readonly NewJob[]): void {
    this.holdCache();
    unsealedWrite(this.db, () => {
      const now = this.now();
      for (let i = 0; i < jobs.length; i += ROWS) {
        const n = Math.min(ROWS, jobs.length - i);
        // The full-size array for ROWS rows; a rest gets an array of its own length.
        const v = n === ROWS ? this.values : new Array<unknown>(n * PER_ROW);
        for (let r = 0; r < n; r++) {
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
        this.insertOf(n).run(v);
      }
      this.values.fill(null);
    });
  }

  private insertOf(rows: number): Statement {
    let s = this.inserts.get(rows);
    if (s === undefined) {
      s = this.db.prepare(insertSql(rows));
      this.inserts.set(rows, s);
    }
    return s;
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
