// The store port `forget` works over: the data folder's SQLite file or a team's PostgreSQL store
// (sqlite-forget-store.ts, pg-forget-store.ts). The places a person's data can be kept in are
// named once here; each adapter reads them page by page and writes back what forget changed.

/** A table and the columns of it that hold text a person may appear in. */
export interface Place {
  readonly table: string;
  /** A column that orders and identifies its rows. */
  readonly key: string;
  readonly columns: readonly string[];
  /** Columns read along (not changed), e.g. a job's state. */
  readonly context?: readonly string[];
}

export const JOBS: Place = {
  table: 'jobs',
  key: 'id',
  columns: ['source', 'payload_json', 'request_body', 'result_json', 'raw_response', 'error_message'],
  context: ['batch_id', 'state'],
};

/** Every place both stores have; a store adds its own (local: watched files, the retention log). */
export const COMMON_PLACES: readonly Place[] = [
  JOBS,
  { table: 'batches', key: 'id', columns: ['name', 'pause_reason', 'pause_code', 'options_json'] },
  { table: 'batch_events', key: 'id', columns: ['detail'] },
  { table: 'job_events', key: 'id', columns: ['reason'] },
  { table: 'attempts', key: 'id', columns: ['error_message'] },
  { table: 'invoice_reviews', key: 'job_id', columns: ['vendor_key', 'vat_key', 'number_key', 'checks_json', 'corrected_json', 'note'] },
  // What a review taught about a supplier (a sole trader's name, their IBAN); the key stays.
  { table: 'supplier_memory', key: 'supplier_key', columns: ['vendor', 'vat_id', 'iban'] },
  { table: 'opt_outs', key: 'recipient', columns: ['source'] },
  // The rows an import left out, kept with their batch (their cells name the person).
  { table: 'skipped_rows', key: 'id', columns: ['source', 'cells_json', 'code_json', 'message'] },
];

export type RowKey = string | number;

export interface Row {
  readonly key: RowKey;
  readonly values: Readonly<Record<string, string | null>>;
}

/** What went with a job that held the value. */
export interface JobCleared {
  vector: boolean;
  searchEntry: boolean;
  /** A file kept in the store itself (a team's speech and images). */
  storedFile: boolean;
  /** It had not been sent yet: cancelled, so it never is. */
  cancelled: boolean;
}

export interface ForgetStore {
  readonly kind: 'sqlite' | 'postgresql';
  readonly places: readonly Place[];
  /** Up to `limit` rows after `after` (null: from the first), in key order. */
  page(place: Place, after: RowKey | null, limit: number): Promise<Row[]>;
  update(place: Place, key: RowKey, changes: Readonly<Record<string, string>>): Promise<void>;
  /** Drops the job's embedding, search entry (indexed again from its scrubbed text) and stored file; cancels it if not sent yet. */
  clearJob(jobId: number): Promise<JobCleared>;
  /** The opt-out list's recipients (as sent to). */
  optOutRecipients(): Promise<string[]>;
  /** The store's forget secret, made on first use. */
  forgetSecret(): Promise<Buffer>;
  /** Replaces an opt-out entry's recipient by its keyed hash (its date and source kept). */
  hashOptOut(recipient: string, hashed: string): Promise<void>;
  /** Forgets when the recipient was last messaged (message pacing); how many rows. */
  removeRecipientSends(recipient: string): Promise<number>;
  /** Makes removed bytes unreadable where the store allows: SQLite rewrites its file; what it could not do, in words. */
  purge(): Promise<string[]>;
}
