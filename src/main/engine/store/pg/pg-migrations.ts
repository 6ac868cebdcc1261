// The shared store's schema, versioned as the SQLite file's is (schema/migrations.ts): steps are only
// ever appended, each runs once, in its own transaction. Several workers may start at once, so
// the steps run under a transaction-level advisory lock: one migrates, the others wait and find
// nothing left to do. Columns and meanings follow the SQLite schema (the same JobRow and
// BatchRow come out of both); times are ms since the epoch, money 1/10,000 EUR, both bigint.
import type pg from 'pg';

/** Any fixed number: the advisory lock every Batchdesk worker takes to migrate. */
const MIGRATION_LOCK = 7_242_013;

/** How long one migration statement (or the wait for another worker's migration) may take. */
const MIGRATION_ANSWER_MS = 30 * 60_000;

/** Adds the inserted row's counts to the shard's (migration 3's upserts into batch_stats, aliased s). */
const ADD_TO_SHARD = `ON CONFLICT (batch_id, shard) DO UPDATE SET
        queued = s.queued + EXCLUDED.queued, running = s.running + EXCLUDED.running, retry_wait = s.retry_wait + EXCLUDED.retry_wait,
        succeeded = s.succeeded + EXCLUDED.succeeded, failed = s.failed + EXCLUDED.failed, cancelled = s.cancelled + EXCLUDED.cancelled,
        spent = s.spent + EXCLUDED.spent, units = s.units + EXCLUDED.units`;

export const PG_MIGRATIONS: readonly string[] = [
  // 1: batches, jobs, their history and counters, attempts.
  `
  CREATE TABLE batches (
    id text PRIMARY KEY,
    name text NOT NULL,
    capability text NOT NULL,
    tier text NOT NULL,
    channel text,
    options_json text NOT NULL DEFAULT '{}',
    status text NOT NULL CHECK (status IN ('active','paused','cancelled')),
    pause_kind text,
    pause_reason text,
    budget bigint,
    estimated_units bigint NOT NULL DEFAULT 0,
    estimated_cost bigint NOT NULL DEFAULT 0,
    total integer NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    started_at bigint,
    ready smallint NOT NULL DEFAULT 0,
    creator text,
    resume_at bigint,
    parent_id text REFERENCES batches(id),
    pipeline_id text NOT NULL,
    step integer NOT NULL DEFAULT 1,
    sampling integer NOT NULL DEFAULT 0,
    key_id text,
    client text,
    scheduled_at bigint,
    quiet_hours text,
    quiet_zone text,
    recipient_gap_ms bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE batch_events (
    id bigserial PRIMARY KEY,
    batch_id text NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    at bigint NOT NULL,
    event text NOT NULL,
    detail text
  );
  CREATE TABLE batch_stats (
    batch_id text PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
    queued bigint NOT NULL DEFAULT 0,
    running bigint NOT NULL DEFAULT 0,
    retry_wait bigint NOT NULL DEFAULT 0,
    succeeded bigint NOT NULL DEFAULT 0,
    failed bigint NOT NULL DEFAULT 0,
    cancelled bigint NOT NULL DEFAULT 0,
    spent bigint NOT NULL DEFAULT 0,
    units bigint NOT NULL DEFAULT 0,
    needs_review bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE jobs (
    id bigserial PRIMARY KEY,
    batch_id text NOT NULL REFERENCES batches(id),
    seq integer NOT NULL,
    state text NOT NULL CHECK (state IN ('queued','running','retry_wait','succeeded','failed','cancelled')),
    idempotency_key text NOT NULL UNIQUE,
    source text NOT NULL,
    payload_json text NOT NULL,
    request_body text,
    estimated_units bigint NOT NULL,
    estimated_cost bigint NOT NULL,
    tries integer NOT NULL DEFAULT 0,
    attempts integer NOT NULL DEFAULT 0,
    limited_tries integer NOT NULL DEFAULT 0,
    fingerprint bigint,
    run_at bigint NOT NULL,
    lease_token text,
    lease_expires_at bigint,
    leased_by text,           -- the worker holding the lease ("host pid"): the window shows who runs what
    units bigint,
    cost bigint,
    result_json text,
    raw_response text,
    error_kind text,
    error_message text,
    http_status integer,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    finished_at bigint,
    parent_job_id bigint REFERENCES jobs(id),
    sample smallint NOT NULL DEFAULT 0,
    UNIQUE (batch_id, seq)
  );
  CREATE INDEX jobs_runnable ON jobs (batch_id, run_at, id) WHERE state IN ('queued','retry_wait');
  CREATE INDEX jobs_leases ON jobs (lease_expires_at) WHERE state = 'running';
  CREATE INDEX jobs_batch_state ON jobs (batch_id, state);
  CREATE TABLE job_events (
    id bigserial PRIMARY KEY,
    job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    at bigint NOT NULL,
    from_state text,
    to_state text NOT NULL,
    reason text
  );
  CREATE INDEX job_events_job ON job_events (job_id);
  CREATE TABLE attempts (
    id bigserial PRIMARY KEY,
    job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    started_at bigint NOT NULL,
    finished_at bigint,
    http_status integer,
    latency_ms integer,
    outcome text NOT NULL,
    error_message text,
    key_label text,
    worker text,
    replayed smallint NOT NULL DEFAULT 0
  );
  CREATE INDEX attempts_job ON attempts (job_id);

  CREATE FUNCTION batch_stats_new_batch() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO batch_stats (batch_id) VALUES (NEW.id);
    RETURN NULL;
  END $$;
  CREATE TRIGGER batch_stats_new_batch AFTER INSERT ON batches FOR EACH ROW EXECUTE FUNCTION batch_stats_new_batch();

  -- An import's jobs arrive in multi-row INSERTs: one counter update per statement.
  CREATE FUNCTION batch_stats_jobs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE batch_stats s SET
        queued = s.queued + n.queued, running = s.running + n.running, retry_wait = s.retry_wait + n.retry_wait,
        succeeded = s.succeeded + n.succeeded, failed = s.failed + n.failed, cancelled = s.cancelled + n.cancelled,
        spent = s.spent + n.spent, units = s.units + n.units
      FROM (SELECT batch_id,
                   count(*) FILTER (WHERE state = 'queued') AS queued, count(*) FILTER (WHERE state = 'running') AS running,
                   count(*) FILTER (WHERE state = 'retry_wait') AS retry_wait, count(*) FILTER (WHERE state = 'succeeded') AS succeeded,
                   count(*) FILTER (WHERE state = 'failed') AS failed, count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
                   COALESCE(sum(cost), 0) AS spent, COALESCE(sum(units) FILTER (WHERE cost IS NOT NULL), 0) AS units
              FROM new_jobs GROUP BY batch_id) n
     WHERE s.batch_id = n.batch_id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER batch_stats_jobs_inserted AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_jobs
    FOR EACH STATEMENT EXECUTE FUNCTION batch_stats_jobs_inserted();

  -- Spend and units count once a job has a cost, as in the SQLite store.
  CREATE FUNCTION batch_stats_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
      UPDATE batch_stats SET
          queued = queued - (OLD.state = 'queued')::int, running = running - (OLD.state = 'running')::int,
          retry_wait = retry_wait - (OLD.state = 'retry_wait')::int, succeeded = succeeded - (OLD.state = 'succeeded')::int,
          failed = failed - (OLD.state = 'failed')::int, cancelled = cancelled - (OLD.state = 'cancelled')::int,
          spent = spent - COALESCE(OLD.cost, 0),
          units = units - CASE WHEN OLD.cost IS NULL THEN 0 ELSE COALESCE(OLD.units, 0) END
       WHERE batch_id = OLD.batch_id;
    END IF;
    IF TG_OP = 'UPDATE' THEN
      UPDATE batch_stats SET
          queued = queued + (NEW.state = 'queued')::int, running = running + (NEW.state = 'running')::int,
          retry_wait = retry_wait + (NEW.state = 'retry_wait')::int, succeeded = succeeded + (NEW.state = 'succeeded')::int,
          failed = failed + (NEW.state = 'failed')::int, cancelled = cancelled + (NEW.state = 'cancelled')::int,
          spent = spent + COALESCE(NEW.cost, 0),
          units = units + CASE WHEN NEW.cost IS NULL THEN 0 ELSE COALESCE(NEW.units, 0) END
       WHERE batch_id = NEW.batch_id;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER batch_stats_job_updated AFTER UPDATE OF state, cost, units ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.cost IS DISTINCT FROM NEW.cost OR OLD.units IS DISTINCT FROM NEW.units)
    EXECUTE FUNCTION batch_stats_job_changed();
  CREATE TRIGGER batch_stats_job_deleted AFTER DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION batch_stats_job_changed();

  -- History is written by the database itself, so no code path (and no worker) can forget it.
  CREATE FUNCTION jobs_history() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO job_events (job_id, at, from_state, to_state, reason) VALUES (NEW.id, NEW.updated_at, OLD.state, NEW.state, NEW.error_message);
    RETURN NULL;
  END $$;
  CREATE TRIGGER jobs_history AFTER UPDATE OF state ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION jobs_history();
  `,
  // 2: limits shared by every worker: a token bucket per API key (by label: keys themselves never
  // enter the shared store), and budget held for each request in flight.
  `
  CREATE TABLE rate_buckets (
    key_label text PRIMARY KEY,
    tokens double precision NOT NULL,
    at bigint NOT NULL
  );
  -- Takes one token when there is one (returns 0), else returns the ms until there will be.
  -- The row lock makes it atomic across workers; time never runs backwards for a bucket.
  CREATE FUNCTION take_token(p_key text, p_per_minute double precision, p_burst double precision, p_now bigint)
    RETURNS bigint LANGUAGE plpgsql AS $$
  DECLARE
    t double precision;
    a bigint;
  BEGIN
    INSERT INTO rate_buckets (key_label, tokens, at) VALUES (p_key, p_burst, p_now) ON CONFLICT (key_label) DO NOTHING;
    SELECT tokens, at INTO t, a FROM rate_buckets WHERE key_label = p_key FOR UPDATE;
    t := LEAST(p_burst, t + GREATEST(0, p_now - a) * p_per_minute / 60000.0);
    -- Tokens accrue in fractions: a rounding error must not hold back a token that is due.
    IF t >= 1 - 1e-9 THEN
      UPDATE rate_buckets SET tokens = GREATEST(0, t - 1), at = GREATEST(a, p_now) WHERE key_label = p_key;
      RETURN 0;
    END IF;
    UPDATE rate_buckets SET tokens = t, at = GREATEST(a, p_now) WHERE key_label = p_key;
    RETURN CEIL((1 - t) * 60000.0 / p_per_minute)::bigint;
  END $$;

  CREATE TABLE budget_holds (
    job_id bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    holder_id text NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    amount bigint NOT NULL
  );
  CREATE INDEX budget_holds_holder ON budget_holds (holder_id);
  `,
  // 3: open attempts indexed by worker, jobs by fingerprint (a batch moving in leaves out what the
  // team has); a batch's counters in shards, one per connection (its backend pid, mod 16). With one row
  // per batch every worker's success waited for the others' commits on that row (a row lock
  // held to the end of each transaction): 3 workers dispatched fewer jobs/s than 1
  // (npm run bench -- team). Readers sum the shards, as they already did over a pipeline's steps.
  `
  ALTER TABLE batch_stats ADD COLUMN shard smallint NOT NULL DEFAULT 0;
  ALTER TABLE batch_stats DROP CONSTRAINT batch_stats_pkey;
  ALTER TABLE batch_stats ADD PRIMARY KEY (batch_id, shard);
  -- Open attempts, found by worker: a restarted worker closes those its dead predecessor left.
  CREATE INDEX attempts_in_flight ON attempts (worker) WHERE outcome = 'in_flight';
  -- A batch moving in leaves out what the team already has (alreadyQueued).
  CREATE INDEX jobs_fingerprint ON jobs (fingerprint);

  CREATE OR REPLACE FUNCTION batch_stats_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    n_queued int := 0; n_running int := 0; n_retry int := 0; n_ok int := 0; n_failed int := 0; n_cancelled int := 0;
    d_spent bigint := 0; d_units bigint := 0;
    b text;
  BEGIN
    IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
      b := OLD.batch_id;
      n_queued := -(OLD.state = 'queued')::int; n_running := -(OLD.state = 'running')::int; n_retry := -(OLD.state = 'retry_wait')::int;
      n_ok := -(OLD.state = 'succeeded')::int; n_failed := -(OLD.state = 'failed')::int; n_cancelled := -(OLD.state = 'cancelled')::int;
      d_spent := -COALESCE(OLD.cost, 0);
      d_units := -(CASE WHEN OLD.cost IS NULL THEN 0 ELSE COALESCE(OLD.units, 0) END);
    END IF;
    IF TG_OP = 'UPDATE' THEN
      n_queued := n_queued + (NEW.state = 'queued')::int; n_running := n_running + (NEW.state = 'running')::int;
      n_retry := n_retry + (NEW.state = 'retry_wait')::int; n_ok := n_ok + (NEW.state = 'succeeded')::int;
      n_failed := n_failed + (NEW.state = 'failed')::int; n_cancelled := n_cancelled + (NEW.state = 'cancelled')::int;
      d_spent := d_spent + COALESCE(NEW.cost, 0);
      d_units := d_units + CASE WHEN NEW.cost IS NULL THEN 0 ELSE COALESCE(NEW.units, 0) END;
    END IF;
    INSERT INTO batch_stats AS s (batch_id, shard, queued, running, retry_wait, succeeded, failed, cancelled, spent, units)
      VALUES (b, pg_backend_pid() % 16, n_queued, n_running, n_retry, n_ok, n_failed, n_cancelled, d_spent, d_units)
      ${ADD_TO_SHARD};
    RETURN NULL;
  END $$;

  -- An import's rows still count once per statement, into the batch's first shard.
  CREATE OR REPLACE FUNCTION batch_stats_jobs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO batch_stats AS s (batch_id, shard, queued, running, retry_wait, succeeded, failed, cancelled, spent, units)
      SELECT batch_id, 0,
             count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'running'),
             count(*) FILTER (WHERE state = 'retry_wait'), count(*) FILTER (WHERE state = 'succeeded'),
             count(*) FILTER (WHERE state = 'failed'), count(*) FILTER (WHERE state = 'cancelled'),
             COALESCE(sum(cost), 0), COALESCE(sum(units) FILTER (WHERE cost IS NOT NULL), 0)
        FROM new_jobs GROUP BY batch_id
      ${ADD_TO_SHARD};
    RETURN NULL;
  END $$;
  `,
  // 4: the last message to each recipient (as sent to: E.164 or lower-cased e-mail), noted when its
  // request leaves on any worker, so a batch's recipient gap holds across the team (as
  // recipient_sends in the SQLite store, messaging/recipient-pacing.ts).
  `
  CREATE TABLE recipient_sends (
    recipient text PRIMARY KEY,
    last_at bigint NOT NULL,
    job_id bigint
  );
  `,
  // 5: full-text search over finished jobs (store/pg/pg-search.ts): a document per job, its words
  // weighted (the source first), and the jobs to index next, noted by a trigger when a job reaches
  // or leaves a final state. Jobs already finished are noted now, indexed at the first search.
  `
  CREATE TABLE job_text (
    job_id bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    source text NOT NULL,
    body text NOT NULL,
    doc tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', source), 'A') || setweight(to_tsvector('english', body), 'B')) STORED
  );
  CREATE INDEX job_text_doc ON job_text USING gin (doc);
  CREATE TABLE job_text_pending (job_id bigint PRIMARY KEY);
  CREATE FUNCTION job_text_note() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO job_text_pending (job_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$;
  CREATE TRIGGER job_text_on_change AFTER UPDATE OF state ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND (NEW.state IN ('succeeded','failed') OR OLD.state IN ('succeeded','failed')))
    EXECUTE FUNCTION job_text_note();
  INSERT INTO job_text_pending (job_id) SELECT id FROM jobs WHERE state IN ('succeeded','failed');
  `,
  // 6: which key a batch was planned with (secrets/key-check.ts: an HMAC and the last four
  // characters, never the key), so a worker holding another key of that label leaves it.
  `
  ALTER TABLE batches ADD COLUMN key_check text;
  ALTER TABLE batches ADD COLUMN key_hint text;
  `,
  // 7: the workers that are up, each noting itself every few seconds (team-worker.ts), so that
  // status and the window list a standing worker with nothing in hand too. A worker that stops
  // cleanly takes its row away; one that was killed is no longer listed once its note is old.
  `
  CREATE TABLE team_workers (
    worker text PRIMARY KEY,
    standing boolean NOT NULL,
    started_at bigint NOT NULL,
    seen_at bigint NOT NULL
  );
  `,
  // 8: invoice checks of the team's OCR items (invoices/invoice-reviews.ts), made by the worker in
  // the transaction of each success, as on one computer; the keys find a duplicate in any batch
  // of the team. A batch's count of invoices to review goes in its counter shards.
  `
  CREATE TABLE invoice_reviews (
    job_id bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    batch_id text NOT NULL,
    vendor_key text,
    vat_key text,
    number_key text,
    needs_review integer NOT NULL,
    checks_json text NOT NULL
  );
  CREATE INDEX invoice_reviews_number ON invoice_reviews (number_key);
  CREATE INDEX invoice_reviews_batch ON invoice_reviews (batch_id, needs_review);
  `,
  // 9: pipelines (--then): a success flows its item into the steps after its batch, found by
  // parent; a step's request is held against every budget that covers it (its own and those of
  // the steps before it), so a job may hold under several budgets at once.
  `
  CREATE INDEX batches_parent ON batches (parent_id) WHERE parent_id IS NOT NULL;
  ALTER TABLE budget_holds DROP CONSTRAINT budget_holds_pkey;
  ALTER TABLE budget_holds ADD PRIMARY KEY (job_id, holder_id);
  `,
  // 10: the team's opt-out list (recipients as sent to, messaging/opt-out-list.ts optOutKey):
  // every worker checks it before each message, besides its own machine's list, so a customer who
  // opted out on one operator's desk is never messaged by another machine.
  `
  CREATE TABLE opt_outs (
    recipient text PRIMARY KEY,
    source text NOT NULL,
    added_at bigint NOT NULL
  );
  `,
  // 11: answers saved as files (speech, images), stored with their item's success by the worker
  // that received them (store/shared-answers.ts), so any desk can export them.
  `
  CREATE TABLE job_files (
    job_id bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    name text NOT NULL,
    bytes bytea NOT NULL
  );
  `,
  // 12: the batches a worker leaves to the others (no key for them on its machine), with why,
  // noted with its presence: status and the window say who cannot send a batch, and when no
  // worker up can.
  `
  ALTER TABLE team_workers ADD COLUMN left_json text NOT NULL DEFAULT '[]';
  `,
  // 13: an embedding is kept as Float32 beside its result, as in the local store (migration 3
  // there): a team's embeddings batch keeps what it paid for.
  `
  CREATE TABLE vectors (
    job_id bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    dimensions integer NOT NULL,
    vector bytea NOT NULL
  );
  `,
  // 14: the API refused the batch's key (a worker paused it for that): until the batch is given
  // another key, resuming it from a computer with another key moves it to that key, whatever
  // paused it last (control/resume.ts).
  `
  ALTER TABLE batches ADD COLUMN key_refused smallint NOT NULL DEFAULT 0;
  `,
  // 15: a key's limit kept with its bucket, so a worker whose machine has no limit set for the key
  // keeps to the one another machine set (the API's limit is the key's, not a machine's); a
  // caller without one learns there is none (-1). The bucket is named by the key itself
  // (team/shared-rate.ts rateBucketOf), whatever each machine calls it.
  `
  ALTER TABLE rate_buckets ADD COLUMN per_minute double precision, ADD COLUMN burst double precision;
  CREATE OR REPLACE FUNCTION take_token(p_key text, p_per_minute double precision, p_burst double precision, p_now bigint)
    RETURNS bigint LANGUAGE plpgsql AS $$
  DECLARE
    t double precision;
    a bigint;
    r double precision;
    b double precision;
  BEGIN
    IF p_per_minute IS NULL THEN
      SELECT per_minute, burst INTO r, b FROM rate_buckets WHERE key_label = p_key;
      IF r IS NULL THEN
        RETURN -1;
      END IF;
    ELSE
      r := p_per_minute;
      b := p_burst;
      INSERT INTO rate_buckets (key_label, tokens, at, per_minute, burst) VALUES (p_key, b, p_now, r, b)
        ON CONFLICT (key_label) DO UPDATE SET per_minute = EXCLUDED.per_minute, burst = EXCLUDED.burst
        WHERE rate_buckets.per_minute IS DISTINCT FROM EXCLUDED.per_minute OR rate_buckets.burst IS DISTINCT FROM EXCLUDED.burst;
    END IF;
    SELECT tokens, at INTO t, a FROM rate_buckets WHERE key_label = p_key FOR UPDATE;
    t := LEAST(b, t + GREATEST(0, p_now - a) * r / 60000.0);
    -- Tokens accrue in fractions: a rounding error must not hold back a token that is due.
    IF t >= 1 - 1e-9 THEN
      UPDATE rate_buckets SET tokens = GREATEST(0, t - 1), at = GREATEST(a, p_now) WHERE key_label = p_key;
      RETURN 0;
    END IF;
    UPDATE rate_buckets SET tokens = t, at = GREATEST(a, p_now) WHERE key_label = p_key;
    RETURN CEIL((1 - t) * 60000.0 / r)::bigint;
  END $$;
  `,
  // 16: the API a batch was first sent to (api/destination.ts), as in the local store (migration
  // 20 there): a worker that sends elsewhere leaves the batch to those that send there.
  `
  ALTER TABLE batches ADD COLUMN api text;
  `,
  // 17: the team's forget secret (messaging/forgotten-recipient.ts): a forgotten person who had
  // opted out stays on the team's list as a hash keyed with it, so no worker messages them again.
  `
  CREATE TABLE forget_secret (
    id smallint PRIMARY KEY CHECK (id = 1),
    secret bytea NOT NULL
  );
  `,
  // 18: retention for the team's batches (retention/team-retention.ts): the rule a batch was made
  // with (its own flags, else the default of the computer that made it), followed by the later
  // steps of its pipeline, and the log of every deletion any worker made, with the worker.
  `
  CREATE TABLE retention_rules (
    batch_id text PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
    keep_files_days integer,
    keep_results_days integer,
    files_from text NOT NULL,
    results_from text NOT NULL
  );
  CREATE TABLE retention_log (
    id bigserial PRIMARY KEY,
    at bigint NOT NULL,
    kind text NOT NULL,
    what text NOT NULL,
    rule text NOT NULL,
    batch_id text,
    job_id bigint,
    worker text NOT NULL
  );
  `,
  // 19: a review that ends, for the team
  // (invoices/invoice-decisions.ts over store/pg/pg-review-store.ts), as in the local store
  // (migration 23 there): the corrected invoice beside the reading, the decision with who and when,
  // and the supplier memory every desk of the team learns from and is offered.
  `
  ALTER TABLE invoice_reviews ADD COLUMN corrected_json text,
    ADD COLUMN decision text CHECK (decision IN ('accepted', 'rejected')),
    ADD COLUMN decided_by text,
    ADD COLUMN decided_at bigint,
    ADD COLUMN note text;
  CREATE TABLE supplier_memory (
    supplier_key text PRIMARY KEY,
    vendor text,
    vat_id text,
    iban text,
    vat_rate double precision,
    job_id bigint NOT NULL,
    batch_id text NOT NULL,
    learned_at bigint NOT NULL
  );
  `,
  // 20: the team's default retention rule (retention/team-retention.ts), one for every worker and
  // desk (`config set keep_files_days N --store URL`), read when retention runs, as the data
  // folder's default is. A part a batch carried from its creator's default gives way to it, so
  // each rule part says whether it was carried (the only such parts 18 wrote are named so).
  `
  CREATE TABLE retention_default (
    id smallint PRIMARY KEY CHECK (id = 1),
    keep_files_days integer,
    keep_results_days integer
  );
  ALTER TABLE retention_rules ADD COLUMN files_carried boolean NOT NULL DEFAULT false, ADD COLUMN results_carried boolean NOT NULL DEFAULT false;
  UPDATE retention_rules SET files_carried = files_from LIKE 'the default of %', results_carried = results_from LIKE 'the default of %';
  `,
  // 21: a pause's reason as a code with its figures (shared/batch-reason.ts), as in the local
  // store (migration 26); rows paused before keep only the words.
  `
  ALTER TABLE batches ADD COLUMN pause_code text;
  `,
  // 23: the rows a batch's import left out, moved here with the batch (engine.ts handOver), as in
  // the local store's migration 28: the row, its source's header and cells, the problem's code and words.
  `
  CREATE TABLE skipped_rows (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  // 23: a retention log entry keeps its rule by its parts beside its words, as in the local store
  // (migration 28 there); older entries keep only the words (read back by retention/rule-parts.ts).
  `
  ALTER TABLE retention_log ADD COLUMN rule_parts text;
  `,
  // 24: the watched folder a batch's items came from (the local store knows it by watch_batches),
  // kept when the batch moves here, so a worker's advice for a changed file is `watch resend`
  // (queue/changed-file-advice.ts); null: a batch made of files or rows.
  `
  ALTER TABLE batches ADD COLUMN watch_dir text;
  `,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Brings the database to the current schema; refuses one made by a newer Batchdesk. */
export async function migratePg(client: pg.ClientBase): Promise<void> {
  // Waiting for another worker's migration and rewriting large tables take minutes, not the
  // seconds a statement gets otherwise (pg-queue-store.ts ANSWER_MS), on the server and here.
  const slow = (text: string, values: unknown[] = []): Promise<pg.QueryResult> => {
    // pg reads a query's own query_timeout (lib/client.js); its types list it for the client only.
    const q: pg.QueryConfig & { query_timeout: number } = { text, values, query_timeout: MIGRATION_ANSWER_MS };
    return client.query(q);
  };
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await slow('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS batchdesk_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM batchdesk_schema');
    const current = r.rows[0]?.v ?? 0;
    if (current > PG_SCHEMA_VERSION) {
      throw new Error(
        `the shared store is at schema version ${current}, made by a newer Batchdesk than this one (which knows ${PG_SCHEMA_VERSION}): update Batchdesk on this machine`,
      );
    }
    for (let v = current + 1; v <= PG_SCHEMA_VERSION; v++) {
      await slow(PG_MIGRATIONS[v - 1] as string);
      await client.query('INSERT INTO batchdesk_schema (version) VALUES ($1)', [v]);
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
