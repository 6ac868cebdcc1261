// A retention run as the window lists it: each deletion with its file's size (read before it goes,
// so a dry run shows what would be freed), the first RETENTION_ITEMS_SHOWN of them, and the count.
import { statSync } from 'node:fs';
import { type RetentionRunView } from '../../shared/contract';
import { RETENTION_ITEMS_SHOWN } from '../../shared/contract-calls';
import type { Deletion } from '../engine/retention/retention-plan';
import type { RetentionOutcome } from '../engine/retention/apply-retention';

/** A file's size now; null for a result text, or a file already gone. */
export function deletionSize(d: Deletion): number | null {
  if (d.path === null) return null;
  try {
    return statSync(d.path).size;
  } catch {
    return null;
  }
}

/** `sizes` were read before the run (a real run deletes the files); `dryRun` as asked. */
export function retentionRunView(outcome: RetentionOutcome, sizes: ReadonlyMap<string, number | null>, dryRun: boolean): RetentionRunView {
  const items = outcome.done.map((d) => ({
    kind: d.kind,
    what: d.what,
    rule: d.rule,
    parts: d.parts,
    batchId: d.batchId,
    jobId: d.jobId,
    size: sizes.get(d.what) ?? null,
  }));
  return {
    dryRun,
    items: items.slice(0, RETENTION_ITEMS_SHOWN),
    count: items.length,
    bytes: items.reduce((sum, i) => sum + (i.size ?? 0), 0),
    problems: outcome.problems,
  };
}
