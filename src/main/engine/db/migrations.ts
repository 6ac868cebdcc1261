// Schema migrations keyed by PRAGMA user_version; each runs once, in its own transaction.
// A step is SQL, or a function when existing rows need computing in JavaScript.
import type Database from 'better-sqlite3';
import { deliveryOfStored, fingerprintOf } from '../queue/fingerprint';

type Step = string | ((db: Database.Database) => void);

/** Computes the stored delivery fingerprint of every job again (of the given capabilities' batches, or all). */
function recomputeFingerprints(db: Database.Database, capabilities: readonly string[] | null): void {
  const update = db.prepare(`UPDATE jobs SET fingerprint = ? WHERE id = ?`);
  const only = capabilities === null ? '' : `AND b.capability IN (${capabilities.map((c) => `'${c}'`).join(',')})`;
  const page = db.prepare(
    `SELECT j.id, j.payload_json, b.capability, b.channel, b.tier, b.options_json FROM jobs j JOIN batches b ON b.id = j.batch_id
     WHERE j.id > ? ${only} ORDER BY j.id LIMIT 5000`,
  );
  // In pages: a statement cannot run while another one is being iterated.
  for (let last = 0; ; ) {
    const rows = page.all(last) as { id: number; payload_json: string; capability: string; channel: string | null; tier: string; options_json: string | null }[];
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
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `This data folder was written by a newer Batchdesk (schema ${current}, this build knows ${SCHEMA_VERSION}). Update Batchdesk or use another --data-dir.`,
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (step === undefined) break;
    db.transaction(() => {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
