// Spend grouped by client, key, batch, capability or day over a range of local days: the engine
// owns this SQL; `batchdesk report`, the Costs screen and the monthly statement read it.
import type { z } from 'zod';
import type { Db } from '../db/connection';
import { SpendQuery, dayStart, NO_CLIENT_LABEL, type SpendBy, type SpendReport, type SpendRow } from '../../../shared/spend';
import { BATCH_CAPABILITIES, assertNever, type BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';

/** A job's local day (YYYY-MM-DD) in SQLite: the time zone of this computer. */
const SQLITE_DAY = `date(j.finished_at / 1000, 'unixepoch', 'localtime')`;

/**
 * The SQL of a row's group, and whether it needs the paying attempt joined; `day` is the
 * dialect's expression of a job's local day.
 */
function groupOf(by: SpendBy, day: string): { expr: string; attempts: boolean } {
  switch (by) {
    case 'client':
      return { expr: `COALESCE(b.client, '')`, attempts: false };
    case 'key':
      // The key that paid is the one on the job's successful attempt.
      return { expr: `COALESCE(a.key_label, 'unknown')`, attempts: true };
    case 'batch':
      return { expr: 'b.id', attempts: false };
    case 'capability':
      return { expr: 'b.capability', attempts: false };
    case 'day':
      return { expr: day, attempts: false };
    default:
      return assertNever(by, 'report grouping');
  }
}

/** A spend query with its defaults filled in (no day bound: null). */
export type ParsedSpendQuery = z.output<typeof SpendQuery>;

/** One group's sums as the store's query gives them. */
export interface SpendRaw {
  grp: string;
  name: string;
  capability: string;
  capabilities: number;
  batches: number;
  items: number;
  units: number | null;
  cost: number;
  first: string;
  last: string;
}

function isCapability(c: string): c is BatchCapability {
  return (BATCH_CAPABILITIES as readonly string[]).includes(c);
}

function labelOf(by: SpendBy, r: SpendRaw): string {
  switch (by) {
    case 'client':
      return r.grp === '' ? NO_CLIENT_LABEL : r.grp;
    case 'batch':
      return r.name;
    case 'capability':
      return isCapability(r.grp) ? describe(r.grp).label : r.grp;
    case 'key':
    case 'day':
      return r.grp;
    default:
      return assertNever(by, 'report grouping');
  }
}

/**
 * The spend query in either SQL dialect: SQLite (named parameters, its own local day) or
 * PostgreSQL (a team's shared store: numbered parameters, the day in this computer's time zone,
 * sums cast back to bigint). One statement, so both stores group and order alike.
 */
export function spendSql(q: ParsedSpendQuery, dialect: { kind: 'sqlite' }): { sql: string; params: Record<string, string | number | null> };
export function spendSql(q: ParsedSpendQuery, dialect: { kind: 'postgresql'; timeZone: string }): { sql: string; params: unknown[] };
export function spendSql(
  q: ParsedSpendQuery,
  dialect: { kind: 'sqlite' } | { kind: 'postgresql'; timeZone: string },
): { sql: string; params: Record<string, string | number | null> | unknown[] } {
  const pg = dialect.kind === 'postgresql';
  const named: Record<string, string | number | null> = {};
  const list: unknown[] = [];
  const param = (name: string, value: string | number | null): string => {
    if (!pg) {
      named[name] = value;
      return `@${name}`;
    }
    list.push(value);
    return `$${list.length}`;
  };
  const day = pg ? `to_char(to_timestamp(j.finished_at / 1000.0) AT TIME ZONE ${param('zone', dialect.timeZone)}, 'YYYY-MM-DD')` : SQLITE_DAY;
  const g = groupOf(q.by, day);
  const where = ['j.cost IS NOT NULL', 'j.finished_at IS NOT NULL'];
  if (q.from !== null) where.push(`j.finished_at >= ${param('from', dayStart(q.from))}`);
  if (q.to !== null) {
    // Up to the end of the last day: the next local midnight (a 23- or 25-hour day at a DST change).
    const start = dayStart(q.to) ?? 0;
    const next = new Date(start);
    next.setDate(next.getDate() + 1);
    where.push(`j.finished_at < ${param('to', next.getTime())}`);
  }
  if (q.client !== undefined) where.push(q.client === null ? 'b.client IS NULL' : `b.client = ${param('client', q.client)}`);
  const big = (e: string): string => (pg ? `(${e})::bigint` : e);
  const sql = `SELECT ${g.expr} AS grp, MIN(b.name) AS name, MIN(b.capability) AS capability, ${big('COUNT(DISTINCT b.capability)')} AS capabilities,
              ${big('COUNT(DISTINCT j.batch_id)')} AS batches, ${big('COUNT(*)')} AS items, ${big('SUM(j.units)')} AS units, ${big('SUM(j.cost)')} AS cost,
              MIN(${day}) AS first, MAX(${day}) AS last
       FROM jobs j JOIN batches b ON b.id = j.batch_id
       ${g.attempts ? `LEFT JOIN attempts a ON a.job_id = j.id AND a.outcome = 'succeeded'` : ''}
       WHERE ${where.join(' AND ')}
       GROUP BY grp
       ORDER BY ${q.by === 'day' ? 'grp' : 'cost DESC, grp'}`;
  return { sql, params: pg ? list : named };
}

/** The report of a query from its groups' sums (either store's). */
export function spendReportOf(q: ParsedSpendQuery, rows: readonly SpendRaw[]): SpendReport {
  const out: SpendRow[] = rows.map((r) => {
    const one = r.capabilities === 1 && isCapability(r.capability);
    return {
      group: r.grp,
      label: labelOf(q.by, r),
      batches: r.batches,
      items: r.items,
      units: one ? (r.units ?? 0) : null,
      unit: one && isCapability(r.capability) ? describe(r.capability).unit : null,
      cost: r.cost,
      first: r.first,
      last: r.last,
    };
  });
  return {
    by: q.by,
    from: q.from,
    to: q.to,
    ...(q.client !== undefined ? { client: q.client } : {}),
    rows: out,
    items: out.reduce((n, r) => n + r.items, 0),
    total: out.reduce((n, r) => n + r.cost, 0),
  };
}

export function spendReport(db: Db, input: SpendQuery): SpendReport {
  const q = SpendQuery.parse(input);
  const { sql, params } = spendSql(q, { kind: 'sqlite' });
  return spendReportOf(q, db.prepare(sql).all(params) as SpendRaw[]);
}
