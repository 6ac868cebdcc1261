// Spend grouped by client, key, batch, capability or day over a range of local days: the engine
// owns this SQL; `batchdesk report`, the Costs screen and the monthly statement read it.
import type { Db } from '../db/connection';
import { SpendQuery, dayStart, NO_CLIENT_LABEL, type SpendBy, type SpendReport, type SpendRow } from '../../../shared/spend';
import { BATCH_CAPABILITIES, assertNever, type BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';

const DAY = `date(j.finished_at / 1000, 'unixepoch', 'localtime')`;

/** The SQL of a row's group, and whether it needs the paying attempt joined. */
function groupOf(by: SpendBy): { expr: string; attempts: boolean } {
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
      return { expr: DAY, attempts: false };
    default:
      return assertNever(by, 'report grouping');
  }
}

interface Raw {
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

function labelOf(by: SpendBy, r: Raw): string {
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

export function spendReport(db: Db, input: SpendQuery): SpendReport {
  const q = SpendQuery.parse(input);
  const g = groupOf(q.by);
  const where = ['j.cost IS NOT NULL', 'j.finished_at IS NOT NULL'];
  const params: Record<string, string | number | null> = {};
  if (q.from !== null) {
    where.push('j.finished_at >= @from');
    params.from = dayStart(q.from);
  }
  if (q.to !== null) {
    // Up to the end of the last day: the next local midnight (a 23- or 25-hour day at a DST change).
    const start = dayStart(q.to) ?? 0;
    const next = new Date(start);
    next.setDate(next.getDate() + 1);
    where.push('j.finished_at < @to');
    params.to = next.getTime();
  }
  if (q.client !== undefined) {
    where.push(q.client === null ? 'b.client IS NULL' : 'b.client = @client');
    if (q.client !== null) params.client = q.client;
  }
  const rows = db
    .prepare(
      `SELECT ${g.expr} AS grp, MIN(b.name) AS name, MIN(b.capability) AS capability, COUNT(DISTINCT b.capability) AS capabilities,
              COUNT(DISTINCT j.batch_id) AS batches, COUNT(*) AS items, SUM(j.units) AS units, SUM(j.cost) AS cost,
              MIN(${DAY}) AS first, MAX(${DAY}) AS last
       FROM jobs j JOIN batches b ON b.id = j.batch_id
       ${g.attempts ? `LEFT JOIN attempts a ON a.job_id = j.id AND a.outcome = 'succeeded'` : ''}
       WHERE ${where.join(' AND ')}
       GROUP BY grp
       ORDER BY ${q.by === 'day' ? 'grp' : 'cost DESC, grp'}`,
    )
    .all(params) as Raw[];
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
