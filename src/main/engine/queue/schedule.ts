// When a scheduled batch starts (`batch create --at`, `batchdesk schedule`, the window): a time
// as people write it, read as this computer's local time unless it names a zone or an offset.
import { instantOf, formatWall } from '../zoned-time';
import { isTimeZone, localZone } from '../messaging/recipient-zone';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*))?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * "2026-12-01 09:00" or "2026-12-01 09:00:30" (this computer's zone), "2026-12-01 09:00 Europe/Berlin", or ISO 8601 with
 * an offset ("2026-12-01T09:00+01:00", "...Z") -> ms since the epoch.
 */
export function parseAt(text: string, zone: string = localZone()): { ok: true; at: number } | { ok: false; reason: string } {
  const t = text.trim();
  const example = 'write it as "2026-12-01 09:00" (this computer\'s time), "2026-12-01 09:00 Europe/Berlin" or "2026-12-01T09:00+01:00"';
  if (WITH_OFFSET.test(t)) {
    const at = Date.parse(t.replace(' ', 'T').replace(/\s+/g, ''));
    return Number.isFinite(at) ? { ok: true, at } : { ok: false, reason: `"${text}" is not a date and time; ${example}.` };
  }
  const m = LOCAL.exec(t);
  if (!m) return { ok: false, reason: `"${text}" is not a date and time; ${example}.` };
  const [, y, mo, d, h, mi, sec, z] = m;
  const where = z ?? zone;
  if (!isTimeZone(where))
    return {
      ok: false,
      reason: `"${z ?? zone}" in "${text}" is not a time zone name; use an IANA name such as Europe/Berlin, or leave it out for this computer's time.`,
    };
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return { ok: false, reason: `"${text}" is not a valid date and time; ${example}.` };
  const at = instantOf(where, Number(y), month, day, hour * 60 + minute) + second * 1000;
  // 2026-02-31 rolls over in Date.UTC: refuse it rather than schedule another day.
  if (!formatWall(at, where).startsWith(`${y}-${mo}-${d}`))
    return { ok: false, reason: `"${text}" is not a day of the calendar (or that time does not exist there); ${example}.` };
  return { ok: true, at };
}

/** What to do instead of a time in the past, when creating a batch and when changing its start. */
export const PAST_INSTEAD = {
  create: 'leave out --at to start when you run it',
  change: 'use --now to start it now (--clear removes the start time)',
} as const;

/** A scheduled time must lie ahead: the error names it and the time now. */
export function pastProblem(at: number, now: number, instead: string = PAST_INSTEAD.create, zone: string = localZone()): string | null {
  if (at > now) return null;
  return `The start time ${formatWall(at, zone)} (${zone}) is in the past (it is now ${formatWall(now, zone)}); give a later time, or ${instead}.`;
}
