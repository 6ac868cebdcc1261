// `forget` over the data folder's SQLite file. Deleted and overwritten bytes are zeroed as they go
// (secure_delete), and at the end the search index is merged (FTS5 keeps a deleted entry's words
// in old segments until then), the WAL checkpointed and emptied, and the file rebuilt (VACUUM),
// so no free page or old log frame still holds the value.
import type { Db } from '../db/connection';
import { Settings } from '../settings';
import { FORGOTTEN_WORDS, sqlText } from '../queue/stored-notes';
import { FORGET_SECRET_SETTING, newForgetSecret } from '../messaging/forgotten-recipient';
import { COMMON_PLACES, type ForgetStore, type JobCleared, type Place, type Row, type RowKey } from './forget-store';

const LOCAL_PLACES: readonly Place[] = [
  ...COMMON_PLACES,
  { table: 'watch_files', key: 'id', columns: ['path', 'message'] },
  { table: 'retention_log', key: 'id', columns: ['what'] },
];

export class SqliteForgetStore implements ForgetStore {
  readonly kind = 'sqlite';
  readonly places = LOCAL_PLACES;
  private readonly settings: Settings;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.settings = new Settings(db);
    db.pragma('secure_delete = ON');
  }

  async page(place: Place, after: RowKey | null, limit: number): Promise<Row[]> {
    const cols = [place.key, ...place.columns, ...(place.context ?? [])].join(', ');
    const where = after === null ? '' : `WHERE ${place.key} > ?`;
    const rows = this.db
      .prepare(`SELECT ${cols} FROM ${place.table} ${where} ORDER BY ${place.key} LIMIT ?`)
      .all(...(after === null ? [] : [after]), limit) as Record<string, string | number | null>[];
    return rows.map((r) => ({ key: r[place.key] as RowKey, values: textValues(r) }));
  }

  async update(place: Place, key: RowKey, changes: Readonly<Record<string, string>>): Promise<void> {
    const names = Object.keys(changes);
    if (names.length === 0) return;
    this.db.prepare(`UPDATE ${place.table} SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE ${place.key} = @__key`).run({ ...changes, __key: key });
  }

  async clearJob(jobId: number): Promise<JobCleared> {
    return this.db.transaction(() => {
      const vector = this.db.prepare(`DELETE FROM vectors WHERE job_id = ?`).run(jobId).changes > 0;
      const searchEntry = this.db.prepare(`DELETE FROM job_text WHERE rowid = ?`).run(jobId).changes > 0;
      // Indexed again from its scrubbed text at the next search (search/search-index.ts).
      if (searchEntry) this.db.prepare(`INSERT OR IGNORE INTO job_text_pending (job_id) VALUES (?)`).run(jobId);
      const cancelled =
        this.db
          .prepare(
            `UPDATE jobs SET state = 'cancelled', error_message = ${sqlText(FORGOTTEN_WORDS)}, lease_token = NULL, lease_expires_at = NULL, updated_at = @now, finished_at = @now
              WHERE id = @id AND state IN ('queued','retry_wait','running')`,
          )
          .run({ now: this.now(), id: jobId }).changes > 0;
      return { vector, searchEntry, storedFile: false, cancelled };
    })();
  }

  async optOutRecipients(): Promise<string[]> {
    return this.db.prepare(`SELECT recipient FROM opt_outs ORDER BY recipient`).pluck().all() as string[];
  }

  async forgetSecret(): Promise<Buffer> {
    const hex = this.settings.get(FORGET_SECRET_SETTING);
    if (hex !== null) return Buffer.from(hex, 'hex');
    const secret = newForgetSecret();
    this.settings.set(FORGET_SECRET_SETTING, secret.toString('hex'));
    return secret;
  }

  async hashOptOut(recipient: string, hashed: string): Promise<void> {
    this.db.transaction(() => {
      const taken = this.db.prepare(`SELECT 1 FROM opt_outs WHERE recipient = ?`).get(hashed) !== undefined;
      if (taken) this.db.prepare(`DELETE FROM opt_outs WHERE recipient = ?`).run(recipient);
      else this.db.prepare(`UPDATE opt_outs SET recipient = ? WHERE recipient = ?`).run(hashed, recipient);
    })();
  }

  async removeRecipientSends(recipient: string): Promise<number> {
    return this.db.prepare(`DELETE FROM recipient_sends WHERE recipient = ?`).run(recipient).changes;
  }

  async purge(): Promise<string[]> {
    this.db.exec(`INSERT INTO job_text (job_text) VALUES ('optimize')`);
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.exec('VACUUM');
    const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return r !== undefined && r.busy !== 0
      ? ['the database log (batchdesk.sqlite-wal) could not be emptied while another program reads the data folder: close the app and run forget again']
      : [];
  }
}

function textValues(r: Record<string, string | number | null>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)]));
}
