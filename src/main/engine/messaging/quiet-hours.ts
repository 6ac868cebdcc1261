// Quiet hours: a daily stretch of local time ("21:00-08:00") when no message goes out. Times are
// read in the recipient's zone through Intl, so daylight saving time is the zone's own; when a
// recipient may be in one of several zones (a country that spans several), a send waits until it
// is daytime in every one of them.
import { instantOf, wallTime, type Wall } from '../zoned-time';

/** Minutes after local midnight: quiet from `start` (inclusive) to `end` (exclusive), across midnight when start > end. */
export interface QuietHours {
  start: number;
  end: number;
  /** As the user wrote it, normalised: "21:00-08:00". */
  text: string;
}

const HH_MM = /^([01]?\d|2[0-3]):([0-5]\d)$/;

export function parseQuietHours(text: string): { ok: true; value: QuietHours } | { ok: false; reason: string } {
  const [a, b, ...rest] = text.split('-').map((s) => s.trim());
  const ma = a === undefined ? null : HH_MM.exec(a);
  const mb = b === undefined ? null : HH_MM.exec(b);
  if (rest.length > 0 || !ma || !mb) {
    return {
      ok: false,
      reason: `quiet hours "${text}" are not two times HH:MM-HH:MM; write them like 21:00-08:00 (no messages from 9 pm to 8 am in the recipient's local time).`,
    };
  }
  const start = Number(ma[1]) * 60 + Number(ma[2]);
  const end = Number(mb[1]) * 60 + Number(mb[2]);
  if (start === end) return { ok: false, reason: `quiet hours "${text}" start and end at the same time; give a stretch such as 21:00-08:00.` };
  const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return { ok: true, value: { start, end, text: `${hhmm(start)}-${hhmm(end)}` } };
}

function minuteOfDay(w: Wall): number {
  return w.hour * 60 + w.minute;
}

export function isQuiet(q: QuietHours, zone: string, t: number): boolean {
  const m = minuteOfDay(wallTime(zone, t));
  return q.start < q.end ? m >= q.start && m < q.end : m >= q.start || m < q.end;
}

/** When quiet hours end next in `zone`, from an instant inside them. */
function quietEnd(q: QuietHours, zone: string, t: number): number {
  const w = wallTime(zone, t);
  const m = minuteOfDay(w);
  // Across midnight and still before midnight: the end is tomorrow, local date.
  const tomorrow = q.start > q.end && m >= q.start;
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + (tomorrow ? 1 : 0)));
  return instantOf(zone, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), q.end);
}

/** How far ahead a common daytime is looked for before saying there is none. */
const HORIZON_MS = 8 * 24 * 3_600_000;

/**
 * The first instant at or after `t` when it is outside quiet hours in every zone, or null when the
 * zones never share a daytime (their local days lie too far apart for the window).
 */
export function nextAllowed(q: QuietHours, zones: readonly string[], t: number): number | null {
  let at = t;
  for (let i = 0; i < 64 && at - t <= HORIZON_MS; i++) {
    let later = at;
    // At least a minute on: a zone's rules must never keep the search in place.
    for (const z of zones) if (isQuiet(q, z, at)) later = Math.max(later, quietEnd(q, z, at), at + 60_000);
    if (later === at) return at;
    at = later;
  }
  return null;
}
