// Writes the new jobs of an import in chunks, each in one transaction (unsealed-write.ts), ROWS
// jobs per INSERT statement and the chunk's rest in one statement of its size: each statement
// costs its own setup (binding, a statement journal for the triggers on `jobs`), and one statement
// per job spent more on that than on the rows (64 rows per statement took about a third less
// time; 256, with the rest in one statement instead of one by one, another 13% less than 64: no
// gain past 256 in docs/performance.md's tenth round). The row written is exactly
// JobStore.insertJobs's (same columns and values: state 'queued', run_at = created_at =
// updated_at = now); keep the two in step. Each chunk is counted in its batch's batch_stats with
// one UPDATE in its transaction, and its fingerprints kept for one sorted pass at the end
// (queue/new-jobs.ts, import-fingerprints.ts: no trigger per row since migration 18).
//
// While importing, the page cache is held to 8 MiB: pages of new jobs are written once and never
// read again, so a full 32 MiB cache only adds to the process's memory. (It used to grow with the
// import, for the fingerprint index read at random; since migration 17 an import's fingerprints
// enter in one sorted pass at its end, and the fixed size measured as fast, with less memory.)
// `finish` puts the connection's own size back.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection';
import { unsealedWrite } from '../db/unsealed-write';
import type { NewJob } from './job-store';
import { ImportFingerprints, type FingerprintEntry } from './import-fingerprints';
import { COUNT_NEW_SQL } from './new-jobs';

export const ROWS = 256;
/** An INSERT of n jobs is INSERT_HEAD followed by n VALUES_ROWs joined with ', ' (insertSql): @batch and @now, and PER_ROW values a row. */
export const INSERT_HEAD = `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body, estimated_units, estimated_cost, run_at, created_at, updated_at) VALUES `;
// The batch and the time are the same for every row: named, they are bound once per statement
// (12 values a row bound one by one cost about a fifth more).
export const VALUES_ROW = `(@batch, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, @now, @now, @now)`;
export const PER_ROW = 8;
/** Drops an import's jobs from a seq on (a file refused part way): batch id, seq. */
export const DELETE_FROM_SEQ_SQL = `DELETE FROM jobs WHERE batch_id = ? AND seq >= ?`;
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

  private readonly count: Statement;
  private readonly discard: Statement;
  /** The fingerprints of the jobs written, entered at the end. */
  readonly fingerprints = new ImportFingerprints();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.count = db.prepare(COUNT_NEW_SQL);
    this.discard = db.prepare(DELETE_FROM_SEQ_SQL);
    this.cacheSize = Number(db.pragma('cache_size', { simple: true }));
    const ownKib = this.cacheSize < 0 ? -this.cacheSize : (this.cacheSize * Number(db.pragma('page_size', { simple: true }))) / 1024;
    this.importCacheSize = -Math.min(ownKib, IMPORT_CACHE_KIB);
  }

  /** Adds `jobs` (consecutive seqs) to the batch in one transaction, with their count (all or none). */
  write(batchId: string, jobs: readonly NewJob[]): void {
    if (jobs.length === 0) return;
    this.holdCache();
    unsealedWrite(this.db, () => {
      const shared = { batch: batchId, now: this.now() };
      let firstId = 0;
      let last = 0;
      for (let i = 0; i < jobs.length; i += ROWS) {
        const n = Math.min(ROWS, jobs.length - i);
        // The full-size array for ROWS rows; a rest gets an array of its own length.
        const v = n === ROWS ? this.values : new Array<unknown>(n * PER_ROW);
        for (let r = 0; r < n; r++) {
          const j = jobs[i + r] as NewJob;
          const o = r * PER_ROW;
          v[o] = j.seq;
          v[o + 1] = j.idempotencyKey;
          v[o + 2] = j.fingerprint;
          v[o + 3] = j.source;
          v[o + 4] = j.payloadJson;
          v[o + 5] = j.requestBody;
          v[o + 6] = j.estimatedUnits;
          v[o + 7] = j.estimatedCost;
        }
        last = Number(this.insertOf(n).run(shared, v).lastInsertRowid);
        if (i === 0) firstId = last - n + 1;
      }
      // The fingerprints are entered by id (import-fingerprints.ts): a gap would misfile them.
      if (last - firstId + 1 !== jobs.length) throw new Error('the ids of a chunk of new jobs are not consecutive');
      this.values.fill(null);
      this.count.run(jobs.length, 0, batchId);
      this.fingerprints.add(
        (jobs[0] as NewJob).seq,
        BigInt64Array.from(jobs, (j) => j.fingerprint),
        firstId,
      );
    });
  }

  /** Deletes the batch's jobs from `seq` on (a file refused part way). */
  discardFrom(batchId: string, seq: number): void {
    unsealedWrite(this.db, () => this.discard.run(batchId, seq));
    this.fingerprints.discardFrom(seq);
  }

  /**
   * Enters the fingerprints of every job written (import-fingerprints.ts), once the import is
   * complete: this writer's, or those a JobChunkThread kept.
   */
  enterFingerprints(from: ImportFingerprints = this.fingerprints): void {
    const entry = this.fingerprintEntry(from);
    this.enterSome(entry, entry.left);
  }

  /** As enterFingerprints, in steps: the entry to give enterSome. */
  fingerprintEntry(from: ImportFingerprints = this.fingerprints): FingerprintEntry {
    this.holdCache();
    return from.entry();
  }

  /** Enters up to `rows` more of the entry's fingerprints, in a transaction of their own. */
  enterSome(entry: FingerprintEntry, rows: number): void {
    unsealedWrite(this.db, () => entry.enterNext(this.db, rows));
  }

  private insertOf(rows: number): Statement {
    let s = this.inserts.get(rows);
    if (s === undefined) {
      s = this.db.prepare(insertSql(rows));
      this.inserts.set(rows, s);
    }
    return s;
  }

  /** Gives the connection its own cache size back. */
  finish(): void {
    this.db.pragma(`cache_size = ${this.cacheSize}`);
  }

  private holdCache(): void {
    this.db.pragma(`cache_size = ${this.importCacheSize}`);
  }
}
