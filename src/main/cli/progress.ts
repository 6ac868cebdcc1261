// Progress of a run: a redrawn bar on a TTY (counts, rate, ETA, spend), plain lines otherwise.
import type { BatchSummary } from '../../shared/domain';
import { formatEur } from '../../shared/money';
import type { TextOut } from './terminal-out';
import { troubleTag } from '../engine/queue/api-trouble';

export interface ProgressSink {
  update(batches: readonly BatchSummary[]): void;
  done(): void;
}

interface Sample {
  at: number;
  finished: number;
}

function totals(batches: readonly BatchSummary[]): {
  total: number;
  finished: number;
  ok: number;
  failed: number;
  cancelled: number;
  retry: number;
  spent: number;
  estimated: number;
} {
  let total = 0;
  let ok = 0;
  let failed = 0;
  let cancelled = 0;
  let retry = 0;
  let spent = 0;
  let estimated = 0;
  for (const b of batches) {
    total += b.total;
    ok += b.counts.succeeded;
    failed += b.counts.failed;
    cancelled += b.counts.cancelled;
    retry += b.counts.retry_wait;
    spent += b.cost.spent;
    estimated += b.cost.estimated;
  }
  return { total, finished: ok + failed + cancelled, ok, failed, cancelled, retry, spent, estimated };
}

/** A batch whose API keeps answering without a result: said first, it is why nothing moves. */
function troubled(batches: readonly BatchSummary[]): BatchSummary | null {
  return batches.find((b) => b.trouble !== null) ?? null;
}

function waitingReason(batches: readonly BatchSummary[]): string | null {
  const t = troubled(batches);
  if (t?.trouble) return `batch ${t.id}: ${t.trouble.reason}`;
  for (const b of batches) if (b.waiting) return `waiting: ${b.waiting.reason}`;
  for (const b of batches) if (b.pause?.kind === 'server_wait') return `paused: ${b.pause.reason}`;
  return null;
}

/** Ms from `at` until the last item held back (quiet hours, a retry time, a wait the API asked for) may go; 0 if none. */
function heldFor(batches: readonly BatchSummary[], at: number): number {
  let until = at;
  for (const b of batches) {
    const held = [b.waiting?.until, b.pause?.kind === 'server_wait' ? b.pause.until : null];
    for (const t of held) if (t) until = Math.max(until, Date.parse(t));
  }
  return until - at;
}

function eta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h > 0 ? `${h}:${String(m).padStart(2, '0')}` : m}:${String(r).padStart(2, '0')}`;
}

/** The time left: at the current rate, and not before what is held back may go. */
function etaOf(left: number, rate: number, heldMs: number): string {
  const sending = rate > 0 ? left / rate : null;
  if (heldMs > 0 && left > 0) return eta(Math.max(sending ?? 0, heldMs / 1000));
  return sending === null ? '--:--' : eta(sending);
}

export function createProgress(stream: TextOut, now: () => number = Date.now): ProgressSink {
  const samples: Sample[] = [];
  const tty = stream.isTTY;
  let lastPlain = 0;
  let lastLine = '';
  let lastPrinted = '';

  let shown = '';
  const line = (batches: readonly BatchSummary[]): string => {
    // A standing worker between batches: nothing to count, so no 0/0.
    if (batches.length === 0) return 'idle: nothing to send now';
    const t = totals(batches);
    const at = now();
    // Another set of batches (a standing worker's, as they start and finish): the rate starts over,
    // not a drop in finished items read as a negative rate.
    const ids = batches.map((b) => b.id).join(' ');
    if (ids !== shown) samples.length = 0;
    shown = ids;
    samples.push({ at, finished: t.finished });
    while (samples.length > 2 && (samples[0]?.at ?? at) < at - 30_000) samples.shift();
    const first = samples[0];
    const rate = first && at > first.at ? ((t.finished - first.finished) * 1000) / (at - first.at) : 0;
    const left = t.total - t.finished;
    const pct = t.total > 0 ? t.finished / t.total : 1;
    const width = 24;
    const filled = Math.round(pct * width);
    const bar = tty ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    const paused = batches.filter((b) => b.status === 'paused').length;
    // Beside the ETA, in a few words, so even a narrow terminal says why it is unknown.
    const trouble = troubled(batches)?.trouble;
    const tag = trouble ? ` (${troubleTag(trouble.kind)})` : '';
    const text =
      // Cancelled items (an opt-out, a cancel) are finished too: counted, so the sum reads right.
      `${bar}${t.finished}/${t.total} (${Math.floor(pct * 100)}%)  ok ${t.ok}  failed ${t.failed}${t.cancelled ? `  cancelled ${t.cancelled}` : ''}` +
      `${t.retry ? `  retrying ${t.retry}` : ''}${paused ? `  paused ${paused}` : ''}  ${rate.toFixed(1)}/s  ETA ${etaOf(left, rate, heldFor(batches, at))}${tag}` +
      `  ${formatEur(t.spent, 4)} of ~${formatEur(t.estimated, 4)}`;
    // When nothing moves, say why: a slow API, a retry time, a wait the API asked for.
    const why = waitingReason(batches);
    const full = why ? `${text}  | ${why}` : text;
    const columns = tty ? (stream.columns ?? 0) : 0;
    return columns > 20 && full.length > columns - 1 ? `${full.slice(0, columns - 2)}…` : full;
  };

  return {
    update(batches) {
      const l = line(batches);
      if (tty) {
        stream.redrawLine(l);
      } else if (l !== lastPrinted && now() - lastPlain >= 2_000) {
        stream.write(`${l}\n`);
        lastPrinted = l;
        lastPlain = now();
      }
      lastLine = l;
    },
    done() {
      if (tty) stream.write('\n');
      else if (lastLine && lastLine !== lastPrinted) stream.write(`${lastLine}\n`);
    },
  };
}
