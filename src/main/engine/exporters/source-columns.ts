// The source CSV's own columns in a result export (CSV, JSON): every column the user's file had
// besides the ones the capability reads (an `order`, a `customer_id`) comes back beside the
// result columns, under its own header name, so the results join back to the user's data.
// A name a result column already has (`state`, `source`, `cost_eur`, ...) is given the prefix
// `source_`, again until it is free, compared case-insensitively: `state` -> `source_state`.
// The columns are those of every item of the batch (a batch of two CSVs has both files'), in the
// order first met, found in a pass over the batch before the first row is written.
import type { BatchCapability } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { storedJson } from '../stored-json';
import type { JobRow } from '../queue/job-row';
import { jobsOf, type ExportPages } from './export-records';

/** What the export's records prefix to a source column whose name a result column has. */
export const SOURCE_COLUMN_PREFIX = 'source_';

/** The item's own CSV columns, by header name ({} for a file, a TXT line, or an unreadable payload). */
export function userColumnsOf(job: Pick<JobRow, 'payload_json'>, capability: BatchCapability): Readonly<Record<string, string>> {
  const mod = capabilityFor(capability);
  if (!mod.userColumns) return {};
  const payload = mod.payload.safeParse(storedJson(job.payload_json));
  return payload.success ? mod.userColumns(payload.data) : {};
}

/** Every source column name of the batch's items, in the order first met. */
export async function sourceColumnNames(pages: ExportPages, capability: BatchCapability): Promise<string[]> {
  if (!capabilityFor(capability).userColumns) return [];
  const names = new Set<string>();
  for await (const job of jobsOf(pages)) for (const name of Object.keys(userColumnsOf(job, capability))) names.add(name);
  return [...names];
}

/**
 * Each source column's name in the export: its own, or with `source_` before it (as often as
 * needed) where a result column, or a source column placed before it, has that name. For a
 * spreadsheet in German the result columns have German names and the prefix is `Quelle_`.
 */
export function exportNames(resultColumns: readonly string[], sourceColumns: readonly string[], prefix: string = SOURCE_COLUMN_PREFIX): Map<string, string> {
  const taken = new Set(resultColumns.map((c) => c.toLowerCase()));
  const out = new Map<string, string>();
  for (const name of sourceColumns) {
    let as = name;
    while (taken.has(as.toLowerCase())) as = `${prefix}${as}`;
    taken.add(as.toLowerCase());
    out.set(name, as);
  }
  return out;
}

/** The item's source columns under their export names; a column this item's file lacks is empty (null). */
export function sourceCells(names: ReadonlyMap<string, string>, own: Readonly<Record<string, string>>): Record<string, string | null> {
  // fromEntries: a column named like an Object property ("__proto__") is an own cell all the same.
  return Object.fromEntries([...names].map(([name, as]) => [as, Object.hasOwn(own, name) ? (own[name] ?? null) : null]));
}
