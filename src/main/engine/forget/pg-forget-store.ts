// `forget` over a team's PostgreSQL store: the same places as the data folder's (forget-store.ts),
// the team's speech and image files kept in the store (job_files), and the team's forget secret.
// PostgreSQL keeps a changed row's old version until VACUUM reclaims it: the changed tables are
// vacuumed at the end (FULL, which rewrites them, where the store's user may; else plain VACUUM,
// which frees the old versions for reuse). Its write-ahead log and backups are the server's.
import type pg from 'pg';
import { newForgetSecret } from '../messaging/forgotten-recipient';
import { FORGOTTEN_WORDS, sqlText } from '../queue/stored-notes';
import { COMMON_PLACES, type ForgetStore, type JobCleared, type Place, type Row, type RowKey } from './forget-store';

const VACUUMED = [
  'jobs',
  'job_text',
  'vectors',
  'job_files',
  'batches',
  'batch_events',
  'job_events',
  'attempts',
  'invoice_reviews',
  'opt_outs',
  'recipient_sends',
  'retention_log',
];

export class PgForgetStore implements ForgetStore {
  readonly kind = 'postgresql';
  // The team's retention log names jobs by their source (retention/team-retention.ts).
  readonly places = [...COMMON_PLACES, { table: 'retention_log', key: 'id', columns: ['what'] }];

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  async page(place: Place, after: RowKey | null, limit: number): Promise<Row[]> {
    const cols = [place.key, ...place.columns, ...(place.context ?? [])].map((c) => `${c}::text AS ${c}`).join(', ');
    const r =
      after === null
        ? await this.pool.query<Record<string, string | null>>(`SELECT ${cols} FROM ${place.table} ORDER BY ${place.key} LIMIT $1`, [limit])
        : await this.pool.query<Record<string, string | null>>(`SELECT ${cols} FROM ${place.table} WHERE ${place.key} > $1 ORDER BY ${place.key} LIMIT $2`, [
            after,
            limit,
          ]);
    return r.rows.map((row) => ({ key: row[place.key] ?? '', values: row }));
  }

  async update(place: Place, key: RowKey, changes: Readonly<Record<string, string>>): Promise<void> {
    const names = Object.keys(changes);
    if (names.length === 0) return;
    await this.pool.query(`UPDATE ${place.table} SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')} WHERE ${place.key} = $1`, [
      key,
      ...names.map((n) => changes[n]),
    ]);
  }

  async clearJob(jobId: number): Promise<JobCleared> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const vector = ((await c.query(`DELETE FROM vectors WHERE job_id = $1`, [jobId])).rowCount ?? 0) > 0;
      const searchEntry = ((await c.query(`DELETE FROM job_text WHERE job_id = $1`, [jobId])).rowCount ?? 0) > 0;
      if (searchEntry) await c.query(`INSERT INTO job_text_pending (job_id) VALUES ($1) ON CONFLICT DO NOTHING`, [jobId]);
      const storedFile = ((await c.query(`DELETE FROM job_files WHERE job_id = $1`, [jobId])).rowCount ?? 0) > 0;
      // In flight on a worker (running) it is left to finish: its lease is the worker's.
      const cancelled =
        ((
          await c.query(
            `UPDATE jobs SET state = 'cancelled', error_message = ${sqlText(FORGOTTEN_WORDS)}, updated_at = $2, finished_at = $2
              WHERE id = $1 AND state IN ('queued','retry_wait')`,
            [jobId, this.now()],
          )
        ).rowCount ?? 0) > 0;
      await c.query('COMMIT');
      return { vector, searchEntry, storedFile, cancelled };
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  async optOutRecipients(): Promise<string[]> {
    return (await this.pool.query<{ recipient: string }>(`SELECT recipient FROM opt_outs ORDER BY recipient`)).rows.map((r) => r.recipient);
  }

  async forgetSecret(): Promise<Buffer> {
    // Two desks forgetting at once make one secret: the first insert wins, both read it back.
    await this.pool.query(`INSERT INTO forget_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [newForgetSecret()]);
    const r = await this.pool.query<{ secret: Buffer }>(`SELECT secret FROM forget_secret WHERE id = 1`);
    const secret = r.rows[0]?.secret;
    if (!secret) throw new Error('the shared store has no forget secret after making one');
    return secret;
  }

  async hashOptOut(recipient: string, hashed: string): Promise<void> {
    await this.pool.query(
      `WITH gone AS (DELETE FROM opt_outs WHERE recipient = $1 RETURNING source, added_at)
       INSERT INTO opt_outs (recipient, source, added_at) SELECT $2, source, added_at FROM gone ON CONFLICT (recipient) DO NOTHING`,
      [recipient, hashed],
    );
  }

  async removeRecipientSends(recipient: string): Promise<number> {
    return (await this.pool.query(`DELETE FROM recipient_sends WHERE recipient = $1`, [recipient])).rowCount ?? 0;
  }

  async purge(): Promise<string[]> {
    try {
      await this.pool.query(`VACUUM (FULL) ${VACUUMED.join(', ')}`);
      return [];
    } catch (e) {
      try {
        await this.pool.query(`VACUUM ${VACUUMED.join(', ')}`);
      } catch {
        // reported below
      }
      return [
        `the shared store could not rewrite its tables (VACUUM FULL: ${e instanceof Error ? e.message : String(e)}); old row versions are freed for reuse but may stay on disk until overwritten: ask its administrator to run VACUUM FULL`,
      ];
    }
  }
}
