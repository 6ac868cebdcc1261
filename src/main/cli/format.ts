// Human-readable rendering of batch summaries and problems.
import { basename } from 'node:path';
import type { BatchSummary } from '../../shared/domain';
import { formatEur } from '../../shared/money';
import type { ImportProblem } from '../engine/importers/types';

const STATUS_WORDS: Record<BatchSummary['status'], string> = {
  pending: 'not started',
  running: 'in progress',
  paused: 'paused',
  cancelled: 'cancelled',
  done: 'done',
  done_with_failures: 'done, some items failed',
};

export function describeBatch(b: BatchSummary): string {
  const c = b.counts;
  const lines = [
    `${b.id}  ${b.name}`,
    `  ${b.capability}${b.channel ? ` via ${b.channel}` : ''}, tier ${b.tier}: ${STATUS_WORDS[b.status]}`,
    `  ${b.total} items: ${c.succeeded} succeeded, ${c.failed} failed, ${c.queued} queued, ${c.running} running, ${c.retry_wait} waiting to retry, ${c.cancelled} cancelled`,
    `  cost: ${formatEur(b.cost.spent, 4)} spent of ${formatEur(b.cost.estimated, 4)} estimated${b.cost.budget !== null ? `, budget ${formatEur(b.cost.budget, 4)}` : ''} (${b.units.measured} of ~${b.units.estimated} ${b.units.name})`,
  ];
  if (b.pause) lines.push(`  paused (${b.pause.kind}): ${b.pause.reason}`);
  return lines.join('\n');
}

/** CSV messages start with "Row N"; prefix the file so every line names file and row. */
export function describeProblems(problems: readonly ImportProblem[]): string {
  return problems.map((p) => `  ! ${p.row !== null ? `${basename(p.source)}: ` : ''}${p.message}`).join('\n');
}
