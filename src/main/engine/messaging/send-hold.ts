// Just before a message is sent: is this the right time for its recipient? Quiet hours in the
// recipient's zone(s) first, then the gap since the last message to them (which, when the send
// may go, notes it at once). A held job goes back to waiting until the time given, with the
// reason in words; it is neither a try nor an attempt and costs nothing.
import { formatWall } from '../zoned-time';
import { formatGap } from '../../../shared/durations';
import { nextAllowed, parseQuietHours, type QuietHours } from './quiet-hours';
import { localZone, recipientZones } from './recipient-zone';
import type { PaceDecision, RecipientPacing } from './recipient-pacing';

/** How a hold's words begin; the read models know a hold by it (queue/stored-notes.ts). */
export const HELD_PREFIX = 'held until ';
/** What a hold's words name as its cause, after the time and zone. */
export const HOLD_CAUSE_WORDS = { quiet_hours: 'quiet hours', recipient_gap: 'recipient gap' } as const;

export type SendTiming = { kind: 'send' } | { kind: 'hold'; until: number; message: string } | { kind: 'fail'; message: string };

/** A batch's delivery rules, as its row (queue/batch-store.ts BatchRow) holds them. */
type Rules = { quiet_hours: string | null; quiet_zone: string | null; recipient_gap_ms: number };

const parsed = new Map<string, QuietHours | null>();
function quietHoursOf(text: string): QuietHours | null {
  if (!parsed.has(text)) {
    const q = parseQuietHours(text);
    parsed.set(text, q.ok ? q.value : null);
  }
  return parsed.get(text) ?? null;
}

export class SendHolds {
  constructor(
    private readonly pacing: RecipientPacing,
    private readonly now: () => number,
  ) {}

  /** Whether job `jobId` of a batch with these rules may message `recipient` now. */
  check(batch: Rules, jobId: number, recipient: string, fields: Readonly<Record<string, string>>): SendTiming {
    const quiet = quietHold(batch, recipient, fields, this.now());
    if (quiet.kind !== 'send') return quiet;
    return paceTiming(this.pacing.take(recipient, jobId, batch.recipient_gap_ms), recipient, batch.recipient_gap_ms);
  }

  /** The send `check` let go has its answer: the recipient's gap counts from now (RecipientPacing.sent). */
  sent(batch: Rules, jobId: number, recipient: string): void {
    if (batch.recipient_gap_ms > 0) this.pacing.sent(recipient, jobId);
  }
}

/** A pacing decision (this data folder's, or a team's shared store's) as the timing of a send. */
export function paceTiming(pace: PaceDecision, recipient: string, gapMs: number): SendTiming {
  if (pace.ok) return { kind: 'send' };
  const zone = localZone();
  // A gap under a minute would read as "until the same minute": the times then say their seconds.
  const seconds = gapMs < 60_000;
  return {
    kind: 'hold',
    until: pace.until,
    message: `${HELD_PREFIX}${formatWall(pace.until, zone, { seconds })} ${zone} (${HOLD_CAUSE_WORDS.recipient_gap} ${formatGap(gapMs)}: ${recipient} was sent a message at ${formatWall(pace.lastAt, zone, { seconds })})`,
  };
}

/** Quiet hours alone, with no memory of earlier sends: checked first, by the runner and a team worker. */
export function quietHold(
  batch: Pick<Rules, 'quiet_hours' | 'quiet_zone'>,
  recipient: string,
  fields: Readonly<Record<string, string>>,
  now: number,
): SendTiming {
  const quiet = batch.quiet_hours === null ? null : quietHoursOf(batch.quiet_hours);
  if (!quiet) return { kind: 'send' };
  const own = batch.quiet_zone ?? localZone();
  const where = recipientZones(recipient, fields, own);
  const at = nextAllowed(quiet, where.zones, now);
  if (at === null) {
    return {
      kind: 'fail',
      message: `${recipient}: it is never outside the quiet hours ${quiet.text} in every zone of ${where.label} at once, so this message cannot be timed. Add a timezone column to the CSV with the recipient's zone (e.g. America/New_York) and create the batch again.`,
    };
  }
  if (at > now) {
    const zone = holdZone(where.zones, at, own);
    return {
      kind: 'hold',
      until: at,
      message: `${HELD_PREFIX}${formatWall(at, zone)} ${zone} (${HOLD_CAUSE_WORDS.quiet_hours} ${quiet.text}, ${where.label})`,
    };
  }
  return { kind: 'send' };
}

/**
 * The zone a hold's time is said in: the recipient's when all their zones keep one clock at that
 * instant (Germany's list names Europe/Berlin and Europe/Zurich), else the batch's own zone (the
 * user's), named, since no one recipient clock is true for them all.
 */
export function holdZone(zones: readonly string[], at: number, own: string): string {
  const first = zones[0];
  if (first === undefined) return own;
  const wall = formatWall(at, first);
  return zones.every((z) => formatWall(at, z) === wall) ? first : own;
}
