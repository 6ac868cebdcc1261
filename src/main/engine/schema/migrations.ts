// Schema migrations keyed by PRAGMA user_version; each runs once, in its own transaction.
import type Database from 'better-sqlite3';
import { deliveryOfStored, fingerprintOf } from '../queue/fingerprint';
import { reviewExistingInvoices } from '../invoices/invoice-reviews';

/**
 * SQL, a function when existing rows need computing in JavaScript, or a rebuild: a step that
 * replaces a table (SQLite cannot drop a column's constraint in place), run with foreign keys off
 * and checked before it commits, as SQLite's own procedure for such changes says.
 */
type Step = string | ((db: Database.Database) => void) | { rebuild: (db: Database.Database) => void; table: string };

/**
 * Migration 19 (user_version 20): `jobs` again, its idempotency keys without a UNIQUE index. Its
 * rows, ids, indexes and triggers are kept exactly (the indexes and triggers are created again
 * from their own SQL as the database holds it).
 */
function jobsWithoutKeyIndex(db: Database.Database): void {
  const dependents = db
    .prepare(`SELECT sql FROM sqlite_master WHERE tbl_name = 'jobs' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`)
    .pluck()
    .all() as string[];
  // Every column the table has, by name: one the new table lacked would stop the copy, not be lost.
  const columns = (db.pragma('table_info(jobs)') as { name: string }[]).map((c) => c.name).join(', ');
  db.exec(`
  CREATE TABLE jobs_new (
    id INTEGER PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','running','retry_wait','succeeded','failed','cancelled')),
    idempotency_key TEXT NOT NULL,   -- unique by construction (queue/idempotency-key.ts; migration 19)
    source TEXT NOT NULL,            -- file path or "messages.csv row 12": what the user recognises
    payload_json TEXT NOT NULL,      -- what the capability needs; never changes after creation
    request_body TEXT,               -- exact JSON body bytes for JSON routes, fixed at creation
    estimated_units INTEGER NOT NULL,
    estimated_cost INTEGER NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,       -- attempts counted against the limit since the last user retry
    attempts INTEGER NOT NULL DEFAULT 0,    -- every attempt ever
    run_at INTEGER NOT NULL,
    lease_token TEXT,
    lease_expires_at INTEGER,
    units INTEGER,
    cost INTEGER,
    result_json TEXT,
    raw_response TEXT,
    error_kind TEXT,
    error_message TEXT,
    http_status INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    fingerprint INTEGER,             -- 64-bit digest of what the job delivers (queue/fingerprint.ts)
    limited_tries INTEGER NOT NULL DEFAULT 0, -- 429s in a row since the last success or resume
    parent_job_id INTEGER REFERENCES jobs(id),
    sample INTEGER NOT NULL DEFAULT 0,
    UNIQUE (batch_id, seq)
  );
  INSERT INTO jobs_new (${columns}) SELECT ${columns} FROM jobs ORDER BY id;
  DROP TABLE jobs;
  ALTER TABLE jobs_new RENAME TO jobs;
  `);
  for (const sql of dependents) db.exec(sql);
}

/** Computes the stored delivery fingerprint of every job again (of the given capabilities' batches, or all). */
function recomputeFingerprints(db: Database.Database, capabilities: readonly string[] | null): void {
  const update = db.prepare(`UPDATE jobs SET fingerprint = ? WHERE id = ?`);
  const only = capabilities === null ? '' : `AND b.capability IN (${capabilities.map((c) => `'${c}'`).join(',')})`;
  const page = db.prepare(
    `SELECT j.id, j.payload_json, b.capability, b.channel, b.tier, b.options_json FROM jobs j JOIN batches b ON b.id = j.batch_id
     WHERE j.id > ? ${only} ORDER BY j.id LIMIT 5000`,
  );
  // In pages: a statement cannot run while another one is being iterated.
  for (let last = 0; ;) {
    const rows = page.all(last) as {
      id: number;
      payload_json: string;
      capability: string;
      channel: string | null;
      tier: string;
      options_json: string | null;
    }[];
    if (rows.length === 0) break;
    for (const r of rows) {
      const d = deliveryOfStored(r, r.payload_json);
      update.run(d === null ? null : fingerprintOf(d), r.id);
    }
    last = rows[rows.length - 1]?.id ?? last;
  }
}

const MIGRATIONS: readonly Step[] = [
  // 1: the whole first schema.
  `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    capability TEXT NOT NULL,
    tier TEXT NOT NULL,
    channel TEXT,
    options_json TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('active','paused','cancelled')),
    pause_kind TEXT,
    pause_reason TEXT,
    budget INTEGER,
    estimated_units INTEGER NOT NULL DEFAULT 0,
    estimated_cost INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','running','retry_wait','succeeded','failed','cancelled')),
    idempotency_key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,            -- file path or "messages.csv row 12": what the user recognises
    payload_json TEXT NOT NULL,      -- what the capability needs; never changes after creation
    request_body TEXT,               -- exact JSON body bytes for JSON routes, fixed at creation
    estimated_units INTEGER NOT NULL,
    estimated_cost INTEGER NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,       -- attempts counted against the limit since the last user retry
    attempts INTEGER NOT NULL DEFAULT 0,    -- every attempt ever
    run_at INTEGER NOT NULL,
    lease_token TEXT,
    lease_expires_at INTEGER,
    units INTEGER,
    cost INTEGER,
    result_json TEXT,
    raw_response TEXT,
    error_kind TEXT,
    error_message TEXT,
    http_status INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (batch_id, seq)
  );
  CREATE INDEX jobs_batch_state ON jobs(batch_id, state);
  -- Claims walk this partial index in run_at order, so a 100,000-job batch never sorts.
  CREATE INDEX jobs_runnable ON jobs(batch_id, run_at, id) WHERE state IN ('queued','retry_wait');

  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    http_status INTEGER,
    latency_ms INTEGER,
    outcome TEXT NOT NULL,            -- succeeded | error kind | interrupted
    error_message TEXT,
    key_label TEXT,
    replayed INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX attempts_job ON attempts(job_id);

  CREATE TABLE job_events (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    at INTEGER NOT NULL,
    from_state TEXT,
    to_state TEXT NOT NULL,
    reason TEXT
  );
  CREATE INDEX job_events_job ON job_events(job_id);

  -- History is written by the database itself, so no code path can forget it.
  CREATE TRIGGER jobs_history AFTER UPDATE OF state ON jobs WHEN old.state <> new.state
  BEGIN
    INSERT INTO job_events (job_id, at, from_state, to_state, reason)
    VALUES (new.id, new.updated_at, old.state, new.state, new.error_message);
  END;

  CREATE TABLE batch_events (
    id INTEGER PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    at INTEGER NOT NULL,
    event TEXT NOT NULL,
    detail TEXT
  );

  CREATE TABLE keys (
    id TEXT PRIMARY KEY,              -- "<kind>:<label>", also the keychain account name
    kind TEXT NOT NULL CHECK (kind IN ('api','channel')),
    label TEXT NOT NULL,
    client TEXT,
    base_url TEXT,
    last4 TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 0,
    UNIQUE (kind, label)
  );

  CREATE TABLE rates (
    item TEXT NOT NULL,
    tier TEXT NOT NULL,
    rate INTEGER NOT NULL CHECK (rate >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (item, tier)
  );

  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: batches start only when the user starts them; a batch being imported is invisible until
  // complete; the API can ask for a long wait; jobs carry a fingerprint of what they deliver.
  `
  ALTER TABLE batches ADD COLUMN started_at INTEGER;          -- NULL: created, waiting for Start / run
  ALTER TABLE batches ADD COLUMN ready INTEGER NOT NULL DEFAULT 1;  -- 0 while batch create is still importing
  ALTER TABLE batches ADD COLUMN creator TEXT;                -- "host pid" of the import in progress
  ALTER TABLE batches ADD COLUMN resume_at INTEGER;           -- paused by the API's own wait: resumes by itself then
  ALTER TABLE jobs ADD COLUMN fingerprint INTEGER;            -- 64-bit digest of what the job delivers (queue/fingerprint.ts)
  ALTER TABLE jobs ADD COLUMN limited_tries INTEGER NOT NULL DEFAULT 0; -- 429s in a row since the last success or resume
  -- Batches that already sent something were started by their user.
  UPDATE batches SET started_at = updated_at
   WHERE EXISTS (SELECT 1 FROM jobs WHERE jobs.batch_id = batches.id AND jobs.attempts > 0);
  `,
  (db) => {
    recomputeFingerprints(db, null);
    db.exec(`CREATE INDEX jobs_fingerprint ON jobs(fingerprint)`);
  },
  // 3: embeddings keep their vector as Float32 (4 bytes a dimension), not JSON.
  `
  CREATE TABLE vectors (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    dimensions INTEGER NOT NULL,
    vector BLOB NOT NULL
  );
  `,
  // 4: pipelines. A follow-up batch takes the succeeded results of its parent; every batch of a
  // chain shares the first one's id as pipeline_id. A follow-up job has the seq of the job it came
  // from, so UNIQUE(batch_id, seq) lets each parent item flow into each follower once.
  `
  ALTER TABLE batches ADD COLUMN parent_id TEXT REFERENCES batches(id);
  ALTER TABLE batches ADD COLUMN pipeline_id TEXT;
  ALTER TABLE batches ADD COLUMN step INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE jobs ADD COLUMN parent_job_id INTEGER REFERENCES jobs(id);
  UPDATE batches SET pipeline_id = id;
  CREATE INDEX batches_parent ON batches(parent_id) WHERE parent_id IS NOT NULL;
  CREATE INDEX batches_pipeline ON batches(pipeline_id);
  CREATE INDEX jobs_parent_job ON jobs(parent_job_id) WHERE parent_job_id IS NOT NULL;
  `,
  // 5: full-text search over finished jobs (search/search-index.ts). The database notes every job
  // that reaches or leaves a final state, so no code path can forget to; the engine turns the
  // notes into documents. Existing finished jobs are noted here and indexed at the first search.
  `
  CREATE VIRTUAL TABLE job_text USING fts5(source, body, tokenize = 'porter unicode61 remove_diacritics 2');
  CREATE TABLE job_text_pending (job_id INTEGER PRIMARY KEY);
  CREATE TRIGGER job_text_on_change AFTER UPDATE OF state ON jobs
    WHEN old.state <> new.state AND (new.state IN ('succeeded','failed') OR old.state IN ('succeeded','failed'))
  BEGIN
    INSERT OR IGNORE INTO job_text_pending (job_id) VALUES (new.id);
  END;
  CREATE TRIGGER job_text_on_insert AFTER INSERT ON jobs WHEN new.state IN ('succeeded','failed')
  BEGIN
    INSERT OR IGNORE INTO job_text_pending (job_id) VALUES (new.id);
  END;
  INSERT INTO job_text_pending (job_id) SELECT id FROM jobs WHERE state IN ('succeeded','failed');
  `,
  // 6: a file's delivery includes the tier (the same content at another tier is new work):
  // the fingerprints of transcription and OCR jobs are computed again.
  (db) => recomputeFingerprints(db, ['transcribe', 'ocr']),
  // 7: a deleted job (an abandoned import) leaves the search index with it; vectors found by size.
  `
  CREATE TRIGGER job_text_on_delete AFTER DELETE ON jobs
  BEGIN
    DELETE FROM job_text WHERE rowid = old.id;
    DELETE FROM job_text_pending WHERE job_id = old.id;
  END;
  CREATE INDEX vectors_dimensions ON vectors(dimensions, job_id);
  `,
  // 8: every invoice OCR reads is checked (invoices/invoice-reviews.ts); the ones already read are
  // checked by step 12, once the table has all its columns.
  (db) => {
    db.exec(`
      CREATE TABLE invoice_reviews (
        job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
        batch_id TEXT NOT NULL,
        vendor_key TEXT,
        number_key TEXT,
        needs_review INTEGER NOT NULL,
        checks_json TEXT NOT NULL
      );
      CREATE INDEX invoice_reviews_invoice ON invoice_reviews(vendor_key, number_key) WHERE number_key IS NOT NULL;
      CREATE INDEX invoice_reviews_batch ON invoice_reviews(batch_id, needs_review);
    `);
  },
  // 9: per-batch counts by state, spend and invoices needing review, kept by the database in the same transaction as every
  // change of a job, so status, the progress line and the window read one row, whatever the size
  // of the batch (a GROUP BY over a 1,000,000-job batch took 220 ms, run 8 times a second).
  `
  CREATE TABLE batch_stats (
    batch_id TEXT PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
    queued INTEGER NOT NULL DEFAULT 0,
    running INTEGER NOT NULL DEFAULT 0,
    retry_wait INTEGER NOT NULL DEFAULT 0,
    succeeded INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    cancelled INTEGER NOT NULL DEFAULT 0,
    spent INTEGER NOT NULL DEFAULT 0,
    units INTEGER NOT NULL DEFAULT 0,
    needs_review INTEGER NOT NULL DEFAULT 0   -- invoices of the batch that failed a check
  );
  CREATE TRIGGER batch_stats_new_batch AFTER INSERT ON batches
  BEGIN
    INSERT INTO batch_stats (batch_id) VALUES (new.id);
  END;
  -- Spend and units count once a job has a cost (as SUM(cost), SUM(units) WHERE cost IS NOT NULL did).
  CREATE TRIGGER batch_stats_job_insert AFTER INSERT ON jobs
  BEGIN
    UPDATE batch_stats SET
         queued = queued + (new.state = 'queued'),
         running = running + (new.state = 'running'),
         retry_wait = retry_wait + (new.state = 'retry_wait'),
         succeeded = succeeded + (new.state = 'succeeded'),
         failed = failed + (new.state = 'failed'),
         cancelled = cancelled + (new.state = 'cancelled'),
         spent = spent + COALESCE(new.cost, 0),
         units = units + CASE WHEN new.cost IS NULL THEN 0 ELSE COALESCE(new.units, 0) END
     WHERE batch_id = new.batch_id;
  END;
  CREATE TRIGGER batch_stats_job_update AFTER UPDATE OF state, cost, units ON jobs
    WHEN old.state IS NOT new.state OR old.cost IS NOT new.cost OR old.units IS NOT new.units
  BEGIN
    UPDATE batch_stats SET
         queued = queued + (new.state = 'queued') - (old.state = 'queued'),
         running = running + (new.state = 'running') - (old.state = 'running'),
         retry_wait = retry_wait + (new.state = 'retry_wait') - (old.state = 'retry_wait'),
         succeeded = succeeded + (new.state = 'succeeded') - (old.state = 'succeeded'),
         failed = failed + (new.state = 'failed') - (old.state = 'failed'),
         cancelled = cancelled + (new.state = 'cancelled') - (old.state = 'cancelled'),
         spent = spent + COALESCE(new.cost, 0) - COALESCE(old.cost, 0),
         units = units + CASE WHEN new.cost IS NULL THEN 0 ELSE COALESCE(new.units, 0) END
                       - CASE WHEN old.cost IS NULL THEN 0 ELSE COALESCE(old.units, 0) END
     WHERE batch_id = new.batch_id;
  END;
  CREATE TRIGGER batch_stats_job_delete AFTER DELETE ON jobs
  BEGIN
    UPDATE batch_stats SET
         queued = queued - (old.state = 'queued'),
         running = running - (old.state = 'running'),
         retry_wait = retry_wait - (old.state = 'retry_wait'),
         succeeded = succeeded - (old.state = 'succeeded'),
         failed = failed - (old.state = 'failed'),
         cancelled = cancelled - (old.state = 'cancelled'),
         spent = spent - COALESCE(old.cost, 0),
         units = units - CASE WHEN old.cost IS NULL THEN 0 ELSE COALESCE(old.units, 0) END
     WHERE batch_id = old.batch_id;
  END;
  CREATE TRIGGER batch_stats_review_insert AFTER INSERT ON invoice_reviews
  BEGIN
    UPDATE batch_stats SET needs_review = needs_review + new.needs_review WHERE batch_id = new.batch_id;
  END;
  CREATE TRIGGER batch_stats_review_update AFTER UPDATE OF needs_review ON invoice_reviews
  BEGIN
    UPDATE batch_stats SET needs_review = needs_review + new.needs_review - old.needs_review WHERE batch_id = new.batch_id;
  END;
  CREATE TRIGGER batch_stats_review_delete AFTER DELETE ON invoice_reviews
  BEGIN
    UPDATE batch_stats SET needs_review = needs_review - old.needs_review WHERE batch_id = old.batch_id;
  END;
  INSERT INTO batch_stats (batch_id) SELECT id FROM batches;
  UPDATE batch_stats SET needs_review = (SELECT COUNT(*) FROM invoice_reviews r WHERE r.batch_id = batch_stats.batch_id AND r.needs_review = 1);
  UPDATE batch_stats SET (queued, running, retry_wait, succeeded, failed, cancelled, spent, units) = (
    SELECT SUM(state = 'queued'), SUM(state = 'running'), SUM(state = 'retry_wait'), SUM(state = 'succeeded'), SUM(state = 'failed'), SUM(state = 'cancelled'), COALESCE(SUM(cost), 0), COALESCE(SUM(CASE WHEN cost IS NULL THEN 0 ELSE units END), 0)
      FROM jobs WHERE jobs.batch_id = batch_stats.batch_id
  ) WHERE EXISTS (SELECT 1 FROM jobs WHERE jobs.batch_id = batch_stats.batch_id);
  `,
  // 10: the opt-out (suppression) list: recipients as sent to (E.164, lower-cased e-mail).
  `
  CREATE TABLE opt_outs (
    recipient TEXT PRIMARY KEY,
    added_at INTEGER NOT NULL,
    source TEXT NOT NULL
  );
  `,
  // 11: sample runs (--sample N): the items chosen to go first, and the batch's sample size while
  // it runs them (0 once they are done, or for a batch without a sample).
  `
  ALTER TABLE batches ADD COLUMN sampling INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX jobs_sample ON jobs(batch_id, state) WHERE sample = 1;
  `,
  // 12: a duplicate invoice is also the same VAT id + number (the vendor's name read another way);
  // every invoice already read is checked (again), in the order it was read.
  (db) => {
    db.exec(`
      ALTER TABLE invoice_reviews ADD COLUMN vat_key TEXT;
      CREATE INDEX invoice_reviews_number ON invoice_reviews(number_key) WHERE number_key IS NOT NULL;
    `);
    reviewExistingInvoices(db);
  },
  // 13: clients and their keys: a key's own request limit (null: the general setting), and the key
  // a batch was created for (null: the default key of its kind) with that key's client, kept on the
  // batch so spend by client survives the key's removal.
  `
  ALTER TABLE keys ADD COLUMN rpm INTEGER;
  ALTER TABLE batches ADD COLUMN key_id TEXT;
  ALTER TABLE batches ADD COLUMN client TEXT;
  `,
  // 14: hot folders (engine/watch): the watched folders, every file they judged (the content hash
  // store: a hash taken once by a watch is never taken again), and each watch's batch per day.
  `
  CREATE TABLE watches (
    id TEXT PRIMARY KEY,
    dir TEXT NOT NULL UNIQUE,
    capability TEXT NOT NULL,
    tier TEXT NOT NULL,
    extensions TEXT,
    then_json TEXT,
    key_label TEXT,
    budget_per_day INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE watch_files (
    id INTEGER PRIMARY KEY,
    watch_id TEXT NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
    sha256 TEXT,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('taken','skipped','set_aside','refused')),
    batch_id TEXT,
    seq INTEGER,
    message TEXT,
    at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX watch_files_taken ON watch_files(watch_id, sha256) WHERE outcome = 'taken';
  CREATE INDEX watch_files_path ON watch_files(watch_id, path);
  CREATE TABLE watch_batches (
    watch_id TEXT NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (watch_id, day, batch_id)
  );
  `,
  // 15: messages that wait for the right time: a batch's start time (--at), its quiet hours and
  // the zone for recipients with none (the zone it was created in), its gap between two messages
  // to one person; and the last send to each recipient, across every batch (messaging/recipient-pacing.ts).
  `
  ALTER TABLE batches ADD COLUMN scheduled_at INTEGER;
  ALTER TABLE batches ADD COLUMN quiet_hours TEXT;
  ALTER TABLE batches ADD COLUMN quiet_zone TEXT;
  ALTER TABLE batches ADD COLUMN recipient_gap_ms INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE recipient_sends (
    recipient TEXT PRIMARY KEY,
    last_at INTEGER NOT NULL,
    job_id INTEGER
  );
  `,
  // 16: tier comparisons (compare/tier-comparison.ts): batches holding the same items of another batch at another tier.
  `
  ALTER TABLE batches ADD COLUMN compare_of TEXT;
  ALTER TABLE batches ADD COLUMN compare_group TEXT;
  CREATE INDEX batches_compare_group ON batches(compare_group) WHERE compare_group IS NOT NULL;
  CREATE INDEX batches_compare_of ON batches(compare_of) WHERE compare_of IS NOT NULL;
  `,
  // 17: delivery fingerprints of visible batches only, in their own table instead of an index on
  // jobs (queue/fingerprint.ts). The index took every imported row at a random place: at 1,000,000
  // rows each 2,000-job chunk dirtied about 2,000 index pages. An import's fingerprints now enter
  // in one sorted pass when its batch is sealed (ready 0 -> 1); a job added to a visible batch (a
  // pipeline's next step, a hot folder's file) enters at once. Only jobs of visible batches ever
  // counted as delivered (JobStore.delivered), and an abandoned import is deleted with nothing here.
  `
  CREATE TABLE job_fingerprints (
    fingerprint INTEGER NOT NULL,
    job_id INTEGER NOT NULL,
    PRIMARY KEY (fingerprint, job_id)
  ) WITHOUT ROWID;
  INSERT INTO job_fingerprints (fingerprint, job_id)
    SELECT j.fingerprint, j.id FROM jobs j JOIN batches b ON b.id = j.batch_id
     WHERE b.ready = 1 AND j.fingerprint IS NOT NULL ORDER BY j.fingerprint, j.id;
  DROP INDEX IF EXISTS jobs_fingerprint;
  CREATE TRIGGER job_fingerprints_insert AFTER INSERT ON jobs
    WHEN new.fingerprint IS NOT NULL AND (SELECT ready FROM batches WHERE id = new.batch_id) = 1
  BEGIN
    INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) VALUES (new.fingerprint, new.id);
  END;
  CREATE TRIGGER job_fingerprints_seal AFTER UPDATE OF ready ON batches WHEN new.ready = 1 AND old.ready = 0
  BEGIN
    INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id)
      SELECT fingerprint, id FROM jobs WHERE batch_id = new.id AND fingerprint IS NOT NULL ORDER BY fingerprint, id;
  END;
  CREATE TRIGGER job_fingerprints_update AFTER UPDATE OF fingerprint ON jobs WHEN old.fingerprint IS NOT new.fingerprint
  BEGIN
    DELETE FROM job_fingerprints WHERE fingerprint = old.fingerprint AND job_id = old.id;
    INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id)
      SELECT new.fingerprint, new.id WHERE new.fingerprint IS NOT NULL AND (SELECT ready FROM batches WHERE id = new.batch_id) = 1;
  END;
  CREATE TRIGGER job_fingerprints_delete AFTER DELETE ON jobs WHEN old.fingerprint IS NOT NULL
  BEGIN
    DELETE FROM job_fingerprints WHERE fingerprint = old.fingerprint AND job_id = old.id;
  END;
  `,
  // 18: a new job is counted and its fingerprint entered by the statement that inserts it
  // (queue/new-jobs.ts), not by a trigger per row: inserts are the one change made in bulk, and the
  // two insert triggers (batch_stats' counters; job_fingerprints, with a look-up of the batch per
  // row) cost a fifth of an import's writing (100,000 rows: 700 -> 550 ms; docs/performance.md,
  // eleventh round). An import counts each chunk with one UPDATE and enters its fingerprints in one
  // sorted pass from the writer's memory when it is complete (queue/import-fingerprints.ts), instead
  // of the seal reading every job back. A job's fingerprint is now entered whether or not its batch
  // is visible yet: only visible batches' jobs count as delivered, which JobStore.delivered checks
  // anyway. Changes, deletions and everything else stay with the triggers.
  `
  DROP TRIGGER IF EXISTS batch_stats_job_insert;
  DROP TRIGGER IF EXISTS job_fingerprints_insert;
  DROP TRIGGER IF EXISTS job_fingerprints_seal;
  DROP TRIGGER IF EXISTS job_fingerprints_update;
  CREATE TRIGGER job_fingerprints_update AFTER UPDATE OF fingerprint ON jobs WHEN old.fingerprint IS NOT new.fingerprint
  BEGIN
    DELETE FROM job_fingerprints WHERE fingerprint = old.fingerprint AND job_id = old.id;
    INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) SELECT new.fingerprint, new.id WHERE new.fingerprint IS NOT NULL;
  END;
  INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id)
    SELECT j.fingerprint, j.id FROM jobs j JOIN batches b ON b.id = j.batch_id
     WHERE b.ready = 0 AND j.fingerprint IS NOT NULL ORDER BY j.fingerprint, j.id;
  `,
  // 19 (user_version 20; step 2 has two entries): no UNIQUE index on jobs.idempotency_key.
  // Nothing looks a job up by its key; the index only checked what the keys are by construction
  // (queue/idempotency-key.ts): a UUIDv7, strictly increasing within a process (a millisecond and
  // a 12-bit counter) with 62 random bits besides, so two processes would have to draw the same 62
  // bits in the same millisecond and counter; an import's jobs, its UUIDv7 and the job's number,
  // which UNIQUE (batch_id, seq) keeps apart. Keeping it up cost a fifth of an import's inserts
  // (100,000 rows in the import's statements: 856 -> 664 ms) and 11% of their pages; the
  // whole command 3-5% (docs/performance.md, twelfth round). That every job gets a key of its own
  // (an import, a copy sent again, a pipeline's steps) is tested in test/integration/resend.test.ts.
  // A folder of 1,000,000 jobs takes about 10 s once to rebuild the table.
  { rebuild: jobsWithoutKeyIndex, table: 'jobs' },
  // 20: the API a batch was first sent to (api/destination.ts): its idempotency keys are known
  // there only, so a runner sends the rest of it nowhere else. NULL: not sent yet (or sent before
  // this step; its next run records where it goes).
  `ALTER TABLE batches ADD COLUMN api TEXT;`,
  // 21: the attempts still in flight, for the start of a run, which closes every one of them as
  // interrupted (JobStore.recoverOrphans): without an index it read every attempt ever made (a
  // data folder of 1,000,000 sends: a million rows at each start). Only in-flight attempts enter
  // it, at most a few per sending slot, so keeping it costs next to nothing.
  `CREATE INDEX attempts_in_flight ON attempts(job_id) WHERE outcome = 'in_flight';`,
  // 22: the batch settings a watched folder's batches are made with and keep in every step
  // (StoredOptions: redact, redactStored), as JSON. NULL: none.
  `ALTER TABLE watches ADD COLUMN options_json TEXT;`,
  // 23: a review that ends (invoices/invoice-decisions.ts): the corrected invoice beside the reading
  // (which stays in the job's result as it came), the decision with who and when (an invoice in the
  // Needs review queue leaves it only by a decision). The supplier memory: what a review taught about a supplier, under each key that
  // finds it again (its VAT id, its name as read and as corrected).
  `
  ALTER TABLE invoice_reviews ADD COLUMN corrected_json TEXT;
  ALTER TABLE invoice_reviews ADD COLUMN decision TEXT CHECK (decision IN ('accepted', 'rejected'));
  ALTER TABLE invoice_reviews ADD COLUMN decided_by TEXT;
  ALTER TABLE invoice_reviews ADD COLUMN decided_at INTEGER;
  ALTER TABLE invoice_reviews ADD COLUMN note TEXT;
  CREATE TABLE supplier_memory (
    supplier_key TEXT PRIMARY KEY,
    vendor TEXT,
    vat_id TEXT,
    iban TEXT,
    vat_rate REAL,
    job_id INTEGER NOT NULL,
    batch_id TEXT NOT NULL,
    learned_at INTEGER NOT NULL
  );
  `,
  // 24: retention (engine/retention): the rules of batches and watched folders (the data folder's
  // default is a setting), and the log of every deletion they made: what, when, by which rule.
  `
  CREATE TABLE retention_rules (
    scope TEXT NOT NULL CHECK (scope IN ('batch','watch')),
    owner_id TEXT NOT NULL,
    keep_files_days INTEGER,
    keep_results_days INTEGER,
    delete_originals INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, owner_id)
  );
  CREATE TABLE retention_log (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('output','upload','original','export','result')),
    what TEXT NOT NULL,
    rule TEXT NOT NULL,
    batch_id TEXT,
    job_id INTEGER
  );
  `,
  // 25: the runnable items this computer reads itself (an e-invoice: queue/local-verdict.ts
  // READ_HERE_MARK), so the runner claims them beside the API's rate gate with one index probe,
  // never a scan of a large batch's payloads. The literal must match JobStore's claim.
  `
  CREATE INDEX jobs_read_here ON jobs(batch_id, run_at, id) WHERE state IN ('queued','retry_wait') AND instr(payload_json, '"einvoice"') > 0;
  `,
  // 26: a pause's reason as a code with its figures (shared/batch-reason.ts), beside its English
  // words, so the window says it in its own language; rows paused before keep only the words.
  `
  ALTER TABLE batches ADD COLUMN pause_code TEXT;
  `,
  // 28: the rows a batch's import left out (invalid, opted out, duplicates, already sent), kept with
  // it: the row, its source's header and cells, the problem as a code and in English
  // (queue/skipped-row-store.ts), for `batch skipped` and the batch page's rejected rows.
  `
  CREATE TABLE skipped_rows (
    id INTEGER PRIMARY KEY,
    batch_id TEXT NOT NULL,
    source TEXT NOT NULL,
    row_no INTEGER NOT NULL,
    header_json TEXT NOT NULL,
    cells_json TEXT NOT NULL,
    code_json TEXT,
    message TEXT NOT NULL
  );
  CREATE INDEX skipped_rows_batch ON skipped_rows(batch_id, id);
  `,
  // 28: a retention log entry keeps its rule by its parts (retention/rule-parts.ts) beside its
  // English words, so the window says it in its own language; older entries keep only the words,
  // read back into parts where they are read (storedRuleParts).
  `
  ALTER TABLE retention_log ADD COLUMN rule_parts TEXT;
  `,
  // 29: a file item's source path, indexed, so the sweep of browser drops (create/drop-sources.ts)
  // asks which files of a drop items use with one range, never a read of every payload. Partial:
  // rows without a path (messages, text) take no room. Built once over existing rows by SQLite.
  `
  CREATE INDEX jobs_file_path ON jobs(json_extract(payload_json, '$.path')) WHERE json_extract(payload_json, '$.path') IS NOT NULL;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * A rebuild of at least this many rows is announced before it starts: about 1 s per 100,000 jobs
 * (10.7 s for 1,000,000), on the first command after an update, which otherwise says nothing.
 */
export const ANNOUNCED_REBUILD_ROWS = 100_000;

/** What a long step says before it starts (the command line prints it on stderr). */
export type UpgradeNotice = (message: string) => void;

function rebuildNotice(table: string, rows: number): string {
  const seconds = Math.max(1, Math.round(rows / 100_000));
  return `Updating this data folder for this version of Batchdesk: its ${table} table (${rows.toLocaleString('en')} rows) is rebuilt, once, in about ${seconds} s. Stopping it is safe: nothing changes until it is done, and it starts again next time.`;
}

/** A database whose schema is newer than this build knows: opened by nothing but a newer Batchdesk. */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  constructor(
    readonly found: number,
    readonly known: number,
    file?: string,
  ) {
    super(
      `${file ?? 'This data folder'} was written by a newer Batchdesk (schema ${found}; this version knows up to ${known}). Nothing was changed. Update Batchdesk, or use another --data-dir.`,
    );
  }
}

/** Runs the steps the database has not had, up to `upTo` (every one; a test stops earlier). */
export function migrate(db: Database.Database, upTo = SCHEMA_VERSION, notice?: UpgradeNotice): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current, SCHEMA_VERSION);
  for (let v = current; v < upTo; v++) {
    const step = MIGRATIONS[v];
    if (step === undefined) break;
    const rebuild = typeof step === 'object';
    // Only outside a transaction: a rebuild's DROP TABLE would otherwise delete every row that
    // refers to the table's rows, or refuse to.
    const foreignKeys = rebuild ? Number(db.pragma('foreign_keys', { simple: true })) : 0;
    if (rebuild) db.pragma('foreign_keys = OFF');
    try {
      // Write-locked from the start, and the version read again inside: another process opening
      // the same folder may have run this step while this one waited.
      db.transaction(() => {
        if (Number(db.pragma('user_version', { simple: true })) > v) return;
        if (typeof step === 'string') db.exec(step);
        else if (typeof step === 'function') step(db);
        else {
          // Said first: the checks below read every referring row too.
          if (notice !== undefined) {
            const rows = Number(db.prepare(`SELECT count(*) FROM ${step.table}`).pluck().get());
            if (rows >= ANNOUNCED_REBUILD_ROWS) notice(rebuildNotice(step.table, rows));
          }
          // Rows that already referred to nothing (none should) are not the rebuild's doing.
          const before = (db.pragma('foreign_key_check') as unknown[]).length;
          step.rebuild(db);
          const after = (db.pragma('foreign_key_check') as unknown[]).length;
          if (after > before)
            throw new Error(`schema step ${v + 1} would leave ${after - before} rows referring to rows that are not there; nothing was changed`);
        }
        db.pragma(`user_version = ${v + 1}`);
      }).immediate();
    } finally {
      if (foreignKeys === 1) db.pragma('foreign_keys = ON');
    }
  }
}
