// Nearest results by meaning: the cosine similarity of a query's embedding with every stored
// vector (Float32, migration 3), a tight scan of one in-memory block keeping the best `limit`. A vector
// made by a follow-up batch (`embeddings --from`) stands for the item it came from: the hit is
// that transcript, OCR text or text result, in its own batch; filters apply to that item.
import type { Db } from '../db/connection';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import type { SearchFilters, SearchHit } from './search-index';
import { storedJson } from '../stored-json';

export interface Scored {
  job: number;
  score: number;
}

const SNIPPET_CHARS = 240;

/** Dimensions of the stored vectors (normally one value: one model made them all). */
export function vectorDimensions(db: Db): number[] {
  return (db.prepare(`SELECT DISTINCT dimensions FROM vectors`).all() as { dimensions: number }[]).map((r) => r.dimensions);
}

/** The SQL (both stores) of "an item of batch ? has a vector": its own, or one a follow-up made from it. */
export const EMBEDDED_IN_SQL = `SELECT 1 FROM vectors v JOIN jobs j ON j.id = v.job_id LEFT JOIN jobs p ON p.id = j.parent_job_id
  WHERE COALESCE(p.batch_id, j.batch_id) = $1 AND j.state = 'succeeded' LIMIT 1`;

export function embeddedIn(db: Db, batchId: string): boolean {
  return db.prepare(EMBEDDED_IN_SQL.replace('$1', '?')).get(batchId) !== undefined;
}

/** Every succeeded vector of one size, with what each stands for (for the filters), in one block. */
export interface Matrix {
  version: string;
  dims: number;
  jobs: Int32Array;
  batches: string[];
  capabilities: string[];
  values: Float32Array;
}

/**
 * The vectors read once into one Float32Array and kept while they do not change (the same count
 * and newest id), so a second query is a plain scan in memory; dropped after a few idle minutes
 * (100,000 vectors of 256 dimensions are 100 MB).
 */
export class VectorCache {
  private matrix: Matrix | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly idleMs = 5 * 60_000) {}

  get(db: Db, dims: number): Matrix {
    const v = db.prepare(`SELECT COUNT(*) AS n, MAX(job_id) AS m FROM vectors WHERE dimensions = ?`).get(dims) as { n: number; m: number | null };
    const version = `${dims}:${v.n}:${v.m ?? 0}`;
    if (this.matrix?.version !== version) this.matrix = load(db, dims, version);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.matrix = null), this.idleMs);
    this.timer.unref();
    return this.matrix;
  }
}

/** A stored vector with the item it stands for (its own, or the parent item it was made from). */
export interface VectorRow {
  job: number;
  vector: Buffer;
  batch: string;
  capability: string;
}

/** Up to `count` vectors of `dims` read into one block, row by row: the blobs are never all held at once. */
export class MatrixBuilder {
  private readonly values: Float32Array;
  private readonly bytes: Uint8Array;
  private readonly jobs: Int32Array;
  private readonly batches: string[] = [];
  private readonly capabilities: string[] = [];
  private k = 0;

  constructor(
    private readonly dims: number,
    private readonly count: number,
    private readonly version: string,
  ) {
    this.values = new Float32Array(count * dims);
    this.bytes = new Uint8Array(this.values.buffer);
    this.jobs = new Int32Array(count);
  }

  add(r: VectorRow): void {
    if (r.vector.byteLength !== this.dims * 4 || this.k >= this.count) return;
    this.bytes.set(r.vector, this.k * this.dims * 4);
    this.jobs[this.k] = r.job;
    this.batches.push(r.batch);
    this.capabilities.push(r.capability);
    this.k++;
  }

  done(): Matrix {
    const k = this.k;
    return {
      version: this.version,
      dims: this.dims,
      jobs: this.jobs.subarray(0, k),
      batches: this.batches,
      capabilities: this.capabilities,
      values: this.values.subarray(0, k * this.dims),
    };
  }
}

function load(db: Db, dims: number, version: string): Matrix {
  const count = (db.prepare(`SELECT COUNT(*) AS n FROM vectors WHERE dimensions = ?`).get(dims) as { n: number }).n;
  const rows = db
    .prepare(
      `SELECT v.job_id AS job, v.vector, ob.id AS batch, ob.capability FROM vectors v JOIN jobs j ON j.id = v.job_id
       LEFT JOIN jobs p ON p.id = j.parent_job_id
       JOIN batches ob ON ob.id = COALESCE(p.batch_id, j.batch_id)
       WHERE j.state = 'succeeded' AND v.dimensions = ? AND ob.ready = 1`,
    )
    .iterate(dims) as IterableIterator<VectorRow>;
  const m = new MatrixBuilder(dims, count, version);
  for (const r of rows) m.add(r);
  return m.done();
}

export function nearest(db: Db, query: Float32Array, f: SearchFilters, cache: VectorCache = new VectorCache(0)): SearchHit[] {
  const best = bestMatches(cache.get(db, query.length), query, f);
  const origin = db.prepare(
    `SELECT o.id AS job, o.seq, o.state, o.source, o.batch_id AS batch, b.name AS batchName, b.capability, o.result_json,
       e.payload_json AS embedded_payload
     FROM jobs e LEFT JOIN jobs p ON p.id = e.parent_job_id JOIN jobs o ON o.id = COALESCE(p.id, e.id) JOIN batches b ON b.id = o.batch_id
     WHERE e.id = ?`,
  );
  return best.flatMap((s) => {
    const o = origin.get(s.job) as Origin | undefined;
    return o ? [hitOf(o, s)] : [];
  });
}

/** The `limit` vectors nearest the query by cosine similarity (those the filters keep), best first. */
export function bestMatches(m: Matrix, query: Float32Array, f: SearchFilters): Scored[] {
  let qn = 0;
  for (const x of query) qn += x * x;
  qn = Math.sqrt(qn) || 1;
  const dims = query.length;
  const best: Scored[] = [];
  const values = m.values;
  for (let r = 0; r < m.jobs.length; r++) {
    if (f.batchId !== undefined && m.batches[r] !== f.batchId) continue;
    if (f.capability !== undefined && m.capabilities[r] !== f.capability) continue;
    const o = r * dims;
    let dot = 0;
    let vn = 0;
    for (let i = 0; i < dims; i++) {
      const x = values[o + i] as number;
      dot += x * (query[i] as number);
      vn += x * x;
    }
    const score = dot / (qn * (Math.sqrt(vn) || 1));
    // Pointing away from the query (or across it) is unrelated, not a weak match.
    if (score <= 0) continue;
    const job = m.jobs[r] as number;
    if (best.length < f.limit) {
      best.push({ job, score });
      if (best.length === f.limit) best.sort((a, c) => c.score - a.score);
    } else if (score > (best[best.length - 1]?.score ?? -Infinity)) {
      // Insert in order; the list is short (limit), the scan is long.
      let i = best.length - 1;
      while (i > 0 && (best[i - 1]?.score ?? 0) < score) i--;
      best.splice(i, 0, { job, score });
      best.pop();
    }
  }
  return best.sort((a, c) => c.score - a.score);
}

/** The item a vector stands for: the embedded job's own input, or the parent item it was made from. */
export interface Origin {
  job: number;
  seq: number;
  state: string;
  source: string;
  batch: string;
  batchName: string;
  capability: BatchCapability;
  result_json: string | null;
  embedded_payload: string;
}

/** A hit as the search shows it: the item, a snippet of its text, the score to three places. */
export function hitOf(o: Origin, s: Scored): SearchHit {
  const own = o.job === s.job;
  const text = own
    ? ((storedJson(o.embedded_payload) as { input?: string } | null)?.input ?? '')
    : (describe(o.capability).offers(storedJson(o.result_json)) ?? '');
  const snippet = text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS).trimEnd()}…` : text;
  return {
    job: o.job,
    seq: o.seq,
    state: o.state,
    source: o.source,
    batch: o.batch,
    batchName: o.batchName,
    capability: o.capability,
    snippet,
    score: Math.round(s.score * 1000) / 1000,
  };
}
