// Schema migrations keyed by PRAGMA user_version; each runs once, in its own transaction.
import type Database from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
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
    const sql = MIGRATIONS[v];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
