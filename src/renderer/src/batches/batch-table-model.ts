// The Batches table's rows: filtered by status, capability and words of the name or id, then
// sorted by a column. Pure, so the screen stays simple and the rules are tested alone.
import type { BatchCapability, BatchSummary, DisplayBatchStatus } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';

export type SortKey = 'name' | 'capability' | 'status' | 'progress' | 'spent' | 'created';
export interface TableQuery {
  text: string;
  status: DisplayBatchStatus | 'all';
  capability: BatchCapability | 'all';
  sort: SortKey;
  descending: boolean;
}

export const DEFAULT_QUERY: TableQuery = { text: '', status: 'all', capability: 'all', sort: 'created', descending: true };

/** Share of items finished (succeeded or failed), 0..1. */
export function progressOf(b: BatchSummary): number {
  return b.total > 0 ? (b.counts.succeeded + b.counts.failed) / b.total : 0;
}

/** Batches waiting for the user (Start, Resume): their controls are shown without asking. */
export function needsAction(b: BatchSummary): boolean {
  return b.status === 'pending' || b.status === 'paused';
}

/** How many of a batch's invoices failed a check (0 for batches that are not invoices). */
export function reviewCount(b: BatchSummary): number {
  return describe(b.capability).invoice ? b.counts.needs_review : 0;
}

/** "1 needs review", "3 need review". */
export function reviewText(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'needs' : 'need'} review`;
}

const STATUS_ORDER: Record<DisplayBatchStatus, number> = { paused: 0, pending: 1, running: 2, done_with_failures: 3, done: 4, cancelled: 5 };

function compare(a: BatchSummary, b: BatchSummary, key: SortKey): number {
  switch (key) {
    case 'name':
      return a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
    case 'capability':
      return a.capability.localeCompare(b.capability);
    case 'status':
      return STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    case 'progress':
      return progressOf(a) - progressOf(b);
    case 'spent':
      return a.cost.spent - b.cost.spent;
    case 'created':
      return a.created_at.localeCompare(b.created_at);
  }
}

export function tableRows(batches: readonly BatchSummary[], q: TableQuery): BatchSummary[] {
  const words = q.text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const rows = batches.filter(
    (b) =>
      (q.status === 'all' || b.status === q.status) &&
      (q.capability === 'all' || b.capability === q.capability) &&
      words.every((w) => b.name.toLowerCase().includes(w) || b.id.toLowerCase().startsWith(w)),
  );
  // Ties keep the newest first, whatever the column.
  return rows.sort((a, b) => {
    const c = compare(a, b, q.sort);
    return (q.descending ? -c : c) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
  });
}
