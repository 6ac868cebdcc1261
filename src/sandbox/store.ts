// All durable sandbox state in one SQLite file (or ':memory:'): keys, idempotency records,
// the delivery ledger, usage and CRM records. A file-backed sandbox keeps its keys and its
// idempotent answers across restarts, which is what the batch engine's crash tests rely on.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { Delivery, KeyInfo, KeyKind, LedgerFilter, UsageReport, UsageRow } from './admin-schemas';

export type CrmKind = 'contacts' | 'conversations' | 'events';

export type KeyRecord = KeyInfo;

export interface StoredOutcome {
  status: number;
  contentType: string;
  body: Buffer;
  /** Headers that belong to the answer (X-Sandbox-Made-Up on a made-up binary answer), replayed with it. */
  headers: Record<string, string>;
}

export type IdempotencyClaim = { state: 'claimed' } | { state: 'in_progress' } | { state: 'done'; fingerprint: string; outcome: StoredOutcome };

export interface UsageEntry {
  keyId: string;
  client: string;
  rateItem: string;
  tier: string;
  units: number;
  cost: number;
}

export interface CrmRecord {
  id: string;
  kind: CrmKind;
  client: string;
  data: Record<string, unknown>;
  created_at: string;
}

interface KeyRow {
  id: string;
  secret: string;
  client: string;
  kind: KeyKind;
  cap: number | null;
  rpm: number | null;
  spent: number;
  revoked_at: string | null;
  created_at: string;
}

interface IdemRow {
  state: 'in_progress' | 'done';
  fingerprint: string | null;
  status: number | null;
  content_type: string | null;
  body: Buffer | null;
  headers: string | null;
}

interface LedgerRow {
  id: string;
  channel: string;
  to_addr: string;
  text: string;
  subject: string | null;
  idempotency_key: string | null;
  client: string;
  key_id: string;
  at: string;
}

interface CrmRow {
  id: string;
  kind: CrmKind;
  client: string;
  data: string;
  created_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY, secret TEXT NOT NULL UNIQUE, client TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('api','channel')),
  cap INTEGER, rpm INTEGER, spent INTEGER NOT NULL DEFAULT 0,
  revoked_at TEXT, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency (
  client TEXT NOT NULL, idem_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress','done')),
  fingerprint TEXT, status INTEGER, content_type TEXT, body BLOB, headers TEXT,
  created_at TEXT NOT NULL, finished_at TEXT,
  PRIMARY KEY (client, idem_key));
CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, channel TEXT NOT NULL,
  to_addr TEXT NOT NULL, text TEXT NOT NULL, subject TEXT, idempotency_key TEXT,
  client TEXT NOT NULL, key_id TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS usage (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, key_id TEXT NOT NULL, client TEXT NOT NULL,
  rate_item TEXT NOT NULL, tier TEXT NOT NULL, units INTEGER NOT NULL, cost INTEGER NOT NULL,
  at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS crm (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, client TEXT NOT NULL, data TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS crm_by_client ON crm (client, kind, created_at);
`;

function nowIso(): string {
  return new Date().toISOString();
}

export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

function toKeyInfo(r: KeyRow): KeyRecord {
  return {
    id: r.id,
    key: r.secret,
    client: r.client,
    kind: r.kind,
    cap: r.cap,
    rpm: r.rpm,
    spent: r.spent,
    revoked: r.revoked_at !== null,
    revoked_at: r.revoked_at,
    created_at: r.created_at,
  };
}

function toDelivery(r: LedgerRow): Delivery {
  return {
    id: r.id,
    channel: r.channel,
    to: r.to_addr,
    text: r.text,
    subject: r.subject,
    idempotency_key: r.idempotency_key,
    client: r.client,
    key_id: r.key_id,
    at: r.at,
  };
}

/** Stored answer headers; none when the row predates them or they cannot be read. */
function storedHeaders(json: string | null): Record<string, string> {
  if (json === null) return {};
  try {
    const v: unknown = JSON.parse(json);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function parseRecord(json: string): Record<string, unknown> {
  const v: unknown = JSON.parse(json);
  const out: Record<string, unknown> = {};
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, val] of Object.entries(v)) out[k] = val;
  }
  return out;
}

function toCrm(r: CrmRow): CrmRecord {
  return { id: r.id, kind: r.kind, client: r.client, data: parseRecord(r.data), created_at: r.created_at };
}

export class SandboxStore {
  readonly db: Database.Database;

  constructor(file = ':memory:') {
    // As the engine's own opens (engine/db/sqlite-driver.ts): a driver built with `npm run native`
    // and named by BATCHDESK_SQLITE_ADDON serves the embedded sandbox too.
    const addon = process.env.BATCHDESK_SQLITE_ADDON;
    this.db = new Database(file, addon ? { nativeBinding: addon } : {});
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    // A state file from before replays kept their headers: the column is added, its rows replay without.
    const columns = this.db.prepare<[], { name: string }>(`PRAGMA table_info(idempotency)`).all();
    if (!columns.some((c) => c.name === 'headers')) this.db.exec(`ALTER TABLE idempotency ADD COLUMN headers TEXT`);
    // Nothing can still be running after a restart: forget claims of requests that died with
    // the previous process so their retries do the work instead of getting 409 forever.
    this.db.prepare(`DELETE FROM idempotency WHERE state = 'in_progress'`).run();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs fn atomically; a throw rolls every write back. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- meta ----

  getMeta(k: string): string | null {
    const row = this.db.prepare<[string], { v: string }>(`SELECT v FROM meta WHERE k = ?`).get(k);
    return row?.v ?? null;
  }

  setMeta(k: string, v: string): void {
    this.db.prepare(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`).run(k, v);
  }

  // ---- keys ----

  createKey(input: { client: string; kind: KeyKind; cap?: number | null; rpm?: number | null }): KeyRecord {
    const id = randomId('key_', 8);
    const secret = randomId(input.kind === 'api' ? 'sk_sandbox_' : 'ck_sandbox_', 20);
    this.db
      .prepare(`INSERT INTO keys (id, secret, client, kind, cap, rpm, spent, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)`)
      .run(id, secret, input.client, input.kind, input.cap ?? null, input.rpm ?? null, nowIso());
    const created = this.getKey(id);
    if (!created) throw new Error('key insert failed');
    return created;
  }

  getKey(id: string): KeyRecord | null {
    const row = this.db.prepare<[string], KeyRow>(`SELECT * FROM keys WHERE id = ?`).get(id);
    return row ? toKeyInfo(row) : null;
  }

  findKeyBySecret(secret: string): KeyRecord | null {
    const row = this.db.prepare<[string], KeyRow>(`SELECT * FROM keys WHERE secret = ?`).get(secret);
    return row ? toKeyInfo(row) : null;
  }

  listKeys(): KeyRecord[] {
    return this.db.prepare<[], KeyRow>(`SELECT * FROM keys ORDER BY rowid`).all().map(toKeyInfo);
  }

  revokeKey(id: string): KeyRecord | null {
    this.db.prepare(`UPDATE keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`).run(nowIso(), id);
    return this.getKey(id);
  }

  updateKey(id: string, patch: { cap?: number | null; rpm?: number | null }): KeyRecord | null {
    if (patch.cap !== undefined) this.db.prepare(`UPDATE keys SET cap = ? WHERE id = ?`).run(patch.cap, id);
    if (patch.rpm !== undefined) this.db.prepare(`UPDATE keys SET rpm = ? WHERE id = ?`).run(patch.rpm, id);
    return this.getKey(id);
  }

  /**
   * Adds cost to the key's spent unless that would pass its cap. Returns false (and changes
   * nothing) when the cap would be exceeded; one guarded UPDATE so there is no check/act gap.
   */
  chargeKey(id: string, cost: number): boolean {
    const r = this.db.prepare(`UPDATE keys SET spent = spent + @cost WHERE id = @id AND (cap IS NULL OR spent + @cost <= cap)`).run({ id, cost });
    return r.changes === 1;
  }

  // ---- idempotency ----

  /** Claims (client, key) for this request, or reports who already holds it. */
  claimIdempotency(client: string, key: string): IdempotencyClaim {
    const ins = this.db
      .prepare(`INSERT OR IGNORE INTO idempotency (client, idem_key, state, created_at) VALUES (?, ?, 'in_progress', ?)`)
      .run(client, key, nowIso());
    if (ins.changes === 1) return { state: 'claimed' };
    const row = this.db
      .prepare<[string, string], IdemRow>(`SELECT state, fingerprint, status, content_type, body, headers FROM idempotency WHERE client = ? AND idem_key = ?`)
      .get(client, key);
    if (!row || row.state === 'in_progress' || row.status === null || row.fingerprint === null) return { state: 'in_progress' };
    return {
      state: 'done',
      fingerprint: row.fingerprint,
      outcome: {
        status: row.status,
        contentType: row.content_type ?? 'application/octet-stream',
        body: row.body ?? Buffer.alloc(0),
        headers: storedHeaders(row.headers),
      },
    };
  }

  finishIdempotency(client: string, key: string, fingerprint: string, outcome: StoredOutcome): void {
    this.db
      .prepare(
        `UPDATE idempotency SET state = 'done', fingerprint = ?, status = ?, content_type = ?, body = ?, headers = ?, finished_at = ?
         WHERE client = ? AND idem_key = ?`,
      )
      .run(fingerprint, outcome.status, outcome.contentType, outcome.body, JSON.stringify(outcome.headers), nowIso(), client, key);
  }

  /** Forgets an unfinished claim so a retry does the work (5xx, faults, aborted uploads). */
  releaseIdempotency(client: string, key: string): void {
    this.db.prepare(`DELETE FROM idempotency WHERE client = ? AND idem_key = ? AND state = 'in_progress'`).run(client, key);
  }

  // ---- ledger ----

  recordDelivery(d: Delivery): void {
    this.db
      .prepare(
        `INSERT INTO ledger (id, channel, to_addr, text, subject, idempotency_key, client, key_id, at)
         VALUES (@id, @channel, @to, @text, @subject, @idempotency_key, @client, @key_id, @at)`,
      )
      .run(d);
  }

  ledger(filter: LedgerFilter = {}): Delivery[] {
    const rows = this.db
      .prepare<{ channel: string | null; client: string | null; idem: string | null }, LedgerRow>(
        `SELECT * FROM ledger WHERE (@channel IS NULL OR channel = @channel) AND (@client IS NULL OR client = @client)
           AND (@idem IS NULL OR idempotency_key = @idem) ORDER BY seq`,
      )
      .all({ channel: filter.channel ?? null, client: filter.client ?? null, idem: filter.idempotency_key ?? null });
    return rows.map(toDelivery);
  }

  // ---- usage ----

  addUsage(u: UsageEntry): void {
    this.db
      .prepare(`INSERT INTO usage (key_id, client, rate_item, tier, units, cost, at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(u.keyId, u.client, u.rateItem, u.tier, u.units, u.cost, nowIso());
  }

  usage(): UsageReport {
    const rows = this.db
      .prepare<[], UsageRow>(
        `SELECT key_id, client, rate_item, tier, COUNT(*) AS requests, SUM(units) AS units, SUM(cost) AS cost
         FROM usage GROUP BY key_id, client, rate_item, tier ORDER BY client, key_id, rate_item, tier`,
      )
      .all();
    return { total_cost: rows.reduce((s, r) => s + r.cost, 0), rows };
  }

  // ---- CRM ----

  insertCrm(kind: CrmKind, client: string, data: Record<string, unknown>): CrmRecord {
    const prefix = kind === 'contacts' ? 'con_' : kind === 'conversations' ? 'cnv_' : 'evt_';
    const rec: CrmRecord = { id: randomId(prefix, 10), kind, client, data, created_at: nowIso() };
    this.db
      .prepare(`INSERT INTO crm (id, kind, client, data, created_at) VALUES (?, ?, ?, ?, ?)`)
      .run(rec.id, kind, client, JSON.stringify(data), rec.created_at);
    return rec;
  }

  getCrm(kind: CrmKind, client: string, id: string): CrmRecord | null {
    const row = this.db.prepare<[string, string, string], CrmRow>(`SELECT * FROM crm WHERE kind = ? AND client = ? AND id = ?`).get(kind, client, id);
    return row ? toCrm(row) : null;
  }

  listCrm(kind: CrmKind, client: string, limit: number): CrmRecord[] {
    return this.db
      .prepare<[string, string, number], CrmRow>(`SELECT * FROM crm WHERE kind = ? AND client = ? ORDER BY rowid LIMIT ?`)
      .all(kind, client, limit)
      .map(toCrm);
  }

  // ---- admin ----

  /** Clears activity (ledger, usage, idempotency, CRM, spent) but keeps the keys. */
  resetActivity(): void {
    this.transaction(() => {
      this.db.exec(`DELETE FROM ledger; DELETE FROM usage; DELETE FROM idempotency; DELETE FROM crm; UPDATE keys SET spent = 0;`);
    });
  }
}
