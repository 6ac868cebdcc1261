// The Batches table's rows: filtered by status, capability and words of the name or id, then
// sorted by a column. Pure, so the screen stays simple and the rules are tested alone.
import type { BatchCapability, BatchSummary, DisplayBatchStatus } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { t } from '../i18n';
import { progressFigure } from './progress-figure';

export type SortKey = 'name' | 'capability' | 'status' | 'progress' | 'spent' | 'created';
export interface TableQuery {
  text: string;
  status: DisplayBatchStatus | 'all';
  capability: BatchCapability | 'all';
  sort: SortKey;
  descending: boolean;
}

export const DEFAULT_QUERY: TableQuery = { text: '', status: 'all', capability: 'all', sort: 'created', descending: true };

/** Share of items finished (succeeded or failed), 0..1: the figure the bar draws. */
export function progressOf(b: BatchSummary): number {
  const f = progressFigure(b);
  return f.total > 0 ? f.done / f.total : 0;
}

/**
 * Batches waiting for the user to Start: their controls are shown without asking. A paused batch
 * stays a row, with its reason and Raise-and-resume on one line under it (BatchTable's PauseRow).
 */
export function needsAction(b: BatchSummary): boolean {
  return b.status === 'pending';
}

/** How many of a batch's invoices failed a check (0 for batches that are not invoices). */
export function reviewCount(b: BatchSummary): number {
  return describe(b.capability).invoice ? b.counts.needs_review : 0;
}

/** "1 needs review", "3 need review". */
export function reviewText(n: number): string {
  return t('batches:review.need', { count: n, n: n.toLocaleString(undefined) });
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

/** A pipeline's status in one word that agrees with its steps: any paused step pauses it, any running one runs it. */
export function pipelineStatus(steps: readonly BatchSummary[]): DisplayBatchStatus {
  const has = (s: DisplayBatchStatus): boolean => steps.some((b) => b.status === s);
  if (has('paused')) return 'paused';
  if (has('running')) return 'running';
  if (steps.every((b) => b.status === 'pending')) return 'pending';
  if (steps.every((b) => b.status === 'cancelled')) return 'cancelled';
  if (has('pending')) return 'running';
  return has('done_with_failures') ? 'done_with_failures' : has('cancelled') && !has('done') ? 'cancelled' : 'done';
}

export interface PipelineRow {
  /** The row as the table sorts and filters it: the first step, with the pipeline's status, progress and spend. */
  row: BatchSummary;
  /** Its steps in order, or the tiers of a comparison (one element for a batch on its own). */
  steps: BatchSummary[];
  kind: 'single' | 'pipeline' | 'compare';
}

/** The group a batch is shown in: its pipeline's, its comparison's, or none. */
function groupOf(b: BatchSummary): string | null {
  if (b.pipeline) return `pipeline:${b.pipeline.id}`;
  if (b.compare) return `compare:${b.compare.group}`;
  return null;
}

/** The batch whose row stands for the group: a pipeline's first step, a comparison's first tier. */
function isHead(b: BatchSummary): boolean {
  return b.pipeline ? b.pipeline.step === 1 : b.compare ? b.compare.group === b.id : true;
}

/** One row per pipeline (its later steps inside it) and per tier comparison (its tiers inside), one per batch on its own. */
export function pipelineRows(batches: readonly BatchSummary[]): PipelineRow[] {
  const groups = new Map<string, BatchSummary[]>();
  for (const b of batches) {
    const g = groupOf(b);
    if (g !== null) groups.set(g, [...(groups.get(g) ?? []), b]);
  }
  const out: PipelineRow[] = [];
  for (const b of batches) {
    const g = groupOf(b);
    const members = g === null ? [b] : (groups.get(g) ?? [b]);
    const head = members.find(isHead) ?? null;
    // A member is shown inside its head's row; without that row (not loaded) it stands alone.
    if (head !== null && head.id !== b.id) continue;
    if (members.length < 2) {
      out.push({ row: b, steps: [b], kind: 'single' });
      continue;
    }
    const ordered = b.pipeline ? [...members].sort((x, y) => (x.pipeline?.step ?? 0) - (y.pipeline?.step ?? 0)) : [...members];
    const sum = (f: (s: BatchSummary) => number): number => ordered.reduce((n, s) => n + f(s), 0);
    const counts = {
      queued: sum((s) => s.counts.queued),
      running: sum((s) => s.counts.running),
      retry_wait: sum((s) => s.counts.retry_wait),
      succeeded: sum((s) => s.counts.succeeded),
      failed: sum((s) => s.counts.failed),
      cancelled: sum((s) => s.counts.cancelled),
      needs_review: sum((s) => s.counts.needs_review),
    };
    const last = ordered[ordered.length - 1] ?? b;
    out.push({
      kind: b.pipeline ? 'pipeline' : 'compare',
      row: {
        ...b,
        status: pipelineStatus(ordered),
        // A pipeline's items are its first step's: one is through when the last step has it, or a
        // step before failed it (it goes no further). Its steps' own figures are shown inside the row.
        total: b.pipeline ? b.total : sum((s) => s.total),
        counts: b.pipeline ? { ...counts, succeeded: last.counts.succeeded, failed: counts.failed } : counts,
        cost: { ...b.cost, spent: sum((s) => s.cost.spent), estimated: sum((s) => s.cost.estimated) },
      },
      steps: ordered,
    });
  }
  return out;
}
