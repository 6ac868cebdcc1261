// The `search` section of `npm run bench`: full-text search (SQLite FTS5) over 100,000 finished
// text results, beside a brute-force LIKE scan of the same rows in the same database, and what
// building the index costs (the first search catches it up) in time and database size.
// The data are made without the API: a text batch from a generated TXT file, its jobs then marked
// succeeded with generated summaries in one SQL transaction (migration 5's trigger queues them).
import { writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import { nullLogger } from '../../src/main/engine/log/logger';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import { ftsQuery } from '../../src/main/engine/search/fts-query';
import { nearest, VectorCache } from '../../src/main/engine/search/semantic-search';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

/** A small seeded generator (mulberry32): the same data and queries every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// In the style of the sandbox's call corpus (src/sandbox/results.ts): what callers say...
const CALLS = [
  'I am calling about the invoice I received last week.',
  'The delivery was supposed to arrive on Tuesday but it has not come yet.',
  'I would like to change the delivery address to our new office.',
  'The payment was made by bank transfer on the fifteenth.',
  'Please send me the updated quote by email.',
  'I think I was charged twice for the same order.',
  'The parcel arrived damaged and the box was open.',
  'Can I cancel my subscription before it renews?',
  'The technician did not turn up for the appointment.',
  'I never received the credit note you promised.',
  'The discount was not applied to my last invoice.',
  'I want to return the product and get my money back.',
  'My card was declined although there is money on the account.',
  'The login code never arrives on my phone.',
  'Could you move the installation to next week?',
];
// ...and what a summary of the call says.
const SUMMARY = [
  'The customer asked for a full refund of the order.',
  'The delivery is late and the customer wants a new date.',
  'The agent confirmed the order number and opened a ticket.',
  'A replacement will be shipped within two working days.',
  'The customer was charged twice and the duplicate payment will be reversed.',
  'The delivery address was changed to the new office.',
  'The invoice shows the wrong amount; a corrected invoice will be sent by email.',
  'The technician visit was rebooked for the afternoon.',
  'The credit note has been issued and sent to the customer.',
  'The subscription was cancelled at the end of the month.',
  'The discount will be applied to the next invoice.',
  'The parcel was damaged in transit; photos were requested for the claim.',
  'The customer needs a copy of the signed delivery note.',
  'The payment by bank transfer has not been matched yet.',
  'The product is back in stock and the order will ship tomorrow.',
  'The agent reset the account and the login now works.',
  'The card payment failed; the customer will pay by transfer instead.',
  "The installation was moved to next week at the customer's request.",
  'The customer is happy with the solution offered.',
  'No further action is needed.',
];
// Rarer facts, each in a small share of the results.
const RARE: [number, string][] = [
  [0.02, 'The case was escalated to a team lead.'],
  [0.01, 'The product is still under warranty.'],
  [0.003, 'The bank opened a chargeback for the payment.'],
  [0.0005, 'The customer suspects fraud on the account.'],
];
const FIRST = [
  'Anna',
  'Ben',
  'Carla',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kemal',
  'Lucia',
  'Marta',
  'Nils',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Samir',
  'Tara',
  'Ugo',
  'Vera',
  'Wim',
  'Xenia',
  'Yusuf',
  'Zoe',
  'Amara',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Emma',
  'Felix',
  'Giulia',
  'Hannah',
  'Ivan',
  'Julia',
  'Kofi',
  'Lena',
  'Mateo',
  'Noor',
];
const LAST = [
  'Smith',
  'Garcia',
  'Müller',
  'Dubois',
  'Rossi',
  'Silva',
  'Jansen',
  'Nowak',
  'Kowalski',
  'Okonkwo',
  'Nakamura',
  'Larsen',
  'Novak',
  'Horvat',
  'Fischer',
  'Moreau',
  'Bianchi',
  'Costa',
  'Visser',
  'Andersen',
  'Ivanova',
  'Papadopoulos',
  'Yilmaz',
  'Haddad',
  'Murphy',
  "O'Brien",
  'Kim',
  'Chen',
  'Singh',
  'Patel',
];
const CITIES = [
  'London',
  'Madrid',
  'Berlin',
  'Paris',
  'Milan',
  'Lisbon',
  'Amsterdam',
  'Warsaw',
  'Vienna',
  'Dublin',
  'Oslo',
  'Prague',
  'Athens',
  'Zagreb',
  'Seville',
  'Lyon',
  'Porto',
  'Rotterdam',
  'Hamburg',
  'Turin',
];
const PRODUCTS = [
  'office chairs',
  'printer toner',
  'a standing desk',
  'a coffee machine',
  'packaging material',
  'a software licence',
  'a router',
  'winter tyres',
  'a washing machine',
  'garden furniture',
  'a laptop',
  'noise-cancelling headphones',
];

/** Skewed pick: low indexes far more often (a few topics dominate, as in real calls). */
const skewed = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(list.length * r() ** 2)] as T;
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(list.length * r())] as T;

interface Item {
  line: string;
  summary: string;
  order: number;
  who: string;
}

function generate(n: number): Item[] {
  const r = rng(20240601);
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    const who = `${pick(r, FIRST)} ${pick(r, LAST)}`;
    const city = pick(r, CITIES);
    const order = 100_000 + Math.floor(r() * 900_000);
    const product = skewed(r, PRODUCTS);
    const said = [skewed(r, CALLS), pick(r, CALLS)].join(' ');
    const line = `Call ${i + 1}: ${who} from ${city} about order ${order} (${product}). ${said}`;
    const parts = [`${who} from ${city} called about order ${order} for ${product}.`];
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) parts.push(skewed(r, SUMMARY));
    for (const [p, s] of RARE) if (r() < p) parts.push(s);
    if (r() < 0.3) parts.push(`Amount in question: €${(5 + r() * 995).toFixed(2)}.`);
    items.push({ line, summary: parts.join(' '), order, who });
  }
  return items;
}

/** ~50 queries as people type them: common and rare words, 1-3 words, a phrase, names, numbers. */
function queries(items: Item[]): string[] {
  const r = rng(7);
  const some = (k: number): Item[] => Array.from({ length: k }, () => pick(r, items));
  return [
    // common single words
    'refund',
    'delivery',
    'invoice',
    'payment',
    'customer',
    'order',
    'address',
    'discount',
    'subscription',
    'technician',
    'parcel',
    'ticket',
    // common pairs and triples
    'late delivery',
    'delivery address',
    'full refund',
    'bank transfer',
    'credit note',
    'corrected invoice',
    'replacement shipped',
    'damaged parcel claim',
    'card payment failed',
    'subscription cancelled month',
    // rarer words and mixes
    'escalated',
    'warranty',
    'chargeback',
    'fraud',
    'escalated refund',
    'warranty replacement',
    'chargeback bank transfer',
    'laptop warranty',
    'winter tyres',
    'headphones refund',
    // names and places (a name is in ~1 in 1,200 results; name + city far fewer)
    ...some(4).map((x) => x.who),
    'Okonkwo',
    'Papadopoulos Athens',
    'Nakamura Oslo refund',
    'Dubois Lyon',
    // an order number (one result), a number with a word
    ...some(3).map((x) => String(x.order)),
    `order ${pick(r, items).order}`,
    // a phrase
    '"charged twice"',
    // nothing matches
    'zeppelin',
    'blockchain invoice',
    'refund zeppelin',
  ];
}

/** The words of a query as the LIKE baseline takes them: a quoted phrase whole, then each word. */
function likePatterns(q: string): string[] {
  const out: string[] = [];
  let rest = q;
  for (const m of q.matchAll(/"([^"]*)"/g)) {
    out.push(`%${m[1] ?? ''}%`);
    rest = rest.replace(m[0], ' ');
  }
  for (const w of rest.match(/[\p{L}\p{N}]+/gu) ?? []) out.push(`%${w}%`);
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export async function benchSearch(opts: { root: string; n: number; rounds: number; secrets: SecretStore; report: Report }): Promise<void> {
  const { root, n, rounds, report } = opts;
  const g0 = performance.now();
  const items = generate(n);
  const file = join(root, 'search-calls.txt');
  writeFileSync(file, `${items.map((x) => x.line).join('\n')}\n`);
  const dir = join(root, 'search');
  const engine = Engine.open({ dataDir: dir, secrets: opts.secrets, logger: nullLogger, env: {} });
  const { batch } = await engine.createBatch({ capability: 'text', paths: [file], task: 'summary', name: 'Bench: call notes (text summary)' });
  if (!batch) throw new Error('search bench: no batch created');
  const db = engine.db;
  // Finished as if the API had answered: the migration-5 trigger queues each one for the index.
  const ids = db.prepare('SELECT id, estimated_units AS units, estimated_cost AS cost FROM jobs WHERE batch_id = ? ORDER BY seq').all(batch.id) as {
    id: number;
    units: number;
    cost: number;
  }[];
  if (ids.length !== n) throw new Error(`search bench: ${ids.length} jobs, expected ${n}`);
  const finish = db.prepare(
    `UPDATE jobs SET state = 'succeeded', units = @units, cost = @cost, result_json = @result, raw_response = @raw,
       http_status = 200, updated_at = @now, finished_at = @now WHERE id = @id`,
  );
  const now = Date.now();
  db.transaction(() => {
    ids.forEach((j, i) => {
      const text = items[i]?.summary ?? '';
      finish.run({
        id: j.id,
        units: j.units,
        cost: j.cost,
        result: JSON.stringify({ text, task: 'summary', label: null }),
        raw: JSON.stringify({ text }),
        now,
      });
    });
  })();
  const pending = db.prepare('SELECT count(*) FROM job_text_pending').pluck();
  const queued = pending.get() as number;
  const setupS = (performance.now() - g0) / 1000;

  // Size on disk with the WAL folded in, before and after the index is built.
  const dbFile = join(dir, 'batchdesk.sqlite');
  const size = (): number => {
    db.pragma('wal_checkpoint(TRUNCATE)');
    return statSync(dbFile).size;
  };
  const size0 = size();
  const qs = queries(items);
  // The first search indexes all 100,000 (catchUp, 500 a transaction), then answers.
  const b0 = performance.now();
  engine.search(qs[0] ?? 'refund', { limit: 20 });
  const buildMs = performance.now() - b0;
  const left = pending.get() as number;
  const size1 = size();
  const indexed = db.prepare('SELECT count(*) FROM job_text').pluck().get() as number;

  // Baseline: the same words as LIKE '%word%' on result_json (all of them), LIMIT 20, same rows.
  const like = qs.map((q) => {
    const pats = likePatterns(q);
    const stmt = db.prepare(
      `SELECT j.id AS job, j.seq, j.state, j.source, j.batch_id AS batch, b.name AS batchName
       FROM jobs j JOIN batches b ON b.id = j.batch_id
       WHERE j.state IN ('succeeded','failed') AND b.ready = 1 AND ${pats.map(() => 'j.result_json LIKE ?').join(' AND ')}
       LIMIT 20`,
    );
    return () => stmt.all(...pats).length;
  });

  const fts: number[] = [];
  const scan: number[] = [];
  let ftsHits = 0;
  let likeHits = 0;
  let ftsEmpty = 0;
  let likeEmpty = 0;
  for (let round = 0; round < rounds; round++) {
    qs.forEach((q, i) => {
      const s0 = performance.now();
      const hits = engine.search(q, { limit: 20 }).length;
      fts.push(performance.now() - s0);
      const l0 = performance.now();
      const lhits = like[i]?.() ?? 0;
      scan.push(performance.now() - l0);
      if (round === 0) {
        ftsHits += hits;
        likeHits += lhits;
        if (hits === 0) ftsEmpty++;
        if (lhits === 0) likeEmpty++;
      }
    });
  }
  // The slowest query of each, by its median over the rounds (a sample per query per round).
  const slowest = (xs: number[]): string => {
    const med = qs.map((q, i) => ({
      q,
      v: [...Array(rounds).keys()].map((r) => xs[r * qs.length + i] ?? 0).sort((a, b) => a - b)[Math.floor(rounds / 2)] ?? 0,
    }));
    const top = med.sort((a, b) => b.v - a.v)[0];
    return `'${top?.q ?? ''}' ${ms(top?.v ?? 0)} ms`;
  };
  const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const slowFts = slowest(fts);
  const slowScan = slowest(scan);
  // Medians by how many results a query matches: FTS5 ranks every match, LIKE stops at 20 found.
  const matchCount = db.prepare('SELECT count(*) FROM job_text WHERE job_text MATCH ?').pluck();
  const rare = qs.map((q) => {
    const fq = ftsQuery(q);
    return fq === null ? true : (matchCount.get(fq) as number) <= n / 100;
  });
  const median = (xs: number[], keep: boolean): number => {
    const v = xs.filter((_, k) => rare[k % qs.length] === keep).sort((a, b) => a - b);
    return percentile(v, 50);
  };
  const nRare = rare.filter(Boolean).length;
  const groups = `${nRare} queries matching <=1% of results: p50 ${ms(median(fts, true))} ms vs LIKE ${ms(median(scan, true))} ms; ${qs.length - nRare} matching more: p50 ${ms(median(fts, false))} ms vs LIKE ${ms(median(scan, false))} ms`;
  fts.sort((a, b) => a - b);
  scan.sort((a, b) => a - b);
  const nn = n.toLocaleString('en');
  report(
    `search, ${nn} results (FTS5)`,
    `p50 ${ms(percentile(fts, 50))} ms p95 ${ms(percentile(fts, 95))} ms`,
    `LIKE scan p50 ${ms(percentile(scan, 50))} ms p95 ${ms(percentile(scan, 95))} ms`,
    `engine.search(q, {limit: 20}), ${qs.length} queries x ${rounds} rounds (1-3 words, common to rare, names, order numbers, a "phrase", 3 with no hit), slowest ${slowFts}; baseline = the same words as result_json LIKE '%w%' AND ... LIMIT 20 on the same rows (no ranking, no stemming, stops at 20), slowest ${slowScan}; ${groups}; first round ${ftsHits} hits (${ftsEmpty} queries empty) vs ${likeHits} (${likeEmpty} empty)`,
  );
  report(
    `search index build, ${nn} docs`,
    `${(buildMs / 1000).toFixed(1)} s, +${((size1 - size0) / 1024 / 1024).toFixed(1)} MB`,
    `${(size0 / 1024 / 1024).toFixed(0)} MB db`,
    `the first search, which catches up the ${queued.toLocaleString('en')} queued docs (${indexed.toLocaleString('en')} indexed, ${left} left); +MB = growth of the database file (WAL checkpointed), baseline = its size before; data made in ${setupS.toFixed(1)} s (TXT -> text batch, jobs marked succeeded by SQL)`,
  );
  benchSemantic(
    engine,
    ids.map((j) => j.id),
    report,
  );
  engine.close();
}

/**
 * Semantic search over one stored vector per result (256 dimensions, Float32, as embeddings
 * batches store them): `nearest` (the engine's scan of the database, top 20 kept) beside the
 * floor of the same arithmetic over vectors already in one Float32Array in memory.
 */
function benchSemantic(engine: Engine, jobIds: number[], report: Report): void {
  const DIMS = 256;
  const random = rng(42);
  const put = engine.db.prepare('INSERT OR REPLACE INTO vectors (job_id, dimensions, vector) VALUES (?, ?, ?)');
  const all = new Float32Array(jobIds.length * DIMS);
  for (let k = 0; k < all.length; k++) all[k] = random() * 2 - 1;
  engine.db.transaction(() => {
    jobIds.forEach((id, i) => put.run(id, DIMS, Buffer.from(all.buffer, i * DIMS * 4, DIMS * 4)));
  })();
  const queriesN = 20;
  const engineMs: number[] = [];
  const cache = new VectorCache();
  const l0 = performance.now();
  cache.get(engine.db, DIMS);
  const loadMs = performance.now() - l0;
  const floorMs: number[] = [];
  for (let q = 0; q < queriesN; q++) {
    const query = new Float32Array(DIMS).map(() => random() * 2 - 1);
    const e0 = performance.now();
    const hits = nearest(engine.db, query, { limit: 20 }, cache);
    engineMs.push(performance.now() - e0);
    if (hits.length !== 20) throw new Error(`semantic bench: ${hits.length} hits`);
    const f0 = performance.now();
    let best = -Infinity;
    for (let v = 0; v < jobIds.length; v++) {
      let dot = 0;
      let norm = 0;
      const o = v * DIMS;
      for (let d = 0; d < DIMS; d++) {
        const x = all[o + d] ?? 0;
        dot += x * (query[d] ?? 0);
        norm += x * x;
      }
      const s = dot / Math.sqrt(norm);
      if (s > best) best = s;
    }
    floorMs.push(performance.now() - f0);
  }
  engineMs.sort((a, b) => a - b);
  floorMs.sort((a, b) => a - b);
  const f = (v: number): string => v.toFixed(0);
  report(
    `semantic search, ${jobIds.length.toLocaleString('en')} vectors x ${DIMS}`,
    `p50 ${f(percentile(engineMs, 50))} ms p95 ${f(percentile(engineMs, 95))} ms`,
    `in-memory loop p50 ${f(percentile(floorMs, 50))} ms`,
    `nearest(): cosine in JS over the vectors held in one Float32Array (read from SQLite once, ${f(loadMs)} ms, kept while unchanged), top 20 kept, filters by batch/capability, ${queriesN} random queries; baseline = the bare arithmetic over the same kind of array (the floor of a scan)`,
  );
}
