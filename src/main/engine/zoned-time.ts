// Wall-clock time in an IANA zone through Intl (daylight saving time as the zone has it): the
// wall clock at an instant, and the instant of a wall-clock time.

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `zone` at instant `t`. */
export function wallTime(zone: string, t: number): Wall {
  const out: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(t))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year ?? 0, month: out.month ?? 1, day: out.day ?? 1, hour: (out.hour ?? 0) % 24, minute: out.minute ?? 0, second: out.second ?? 0 };
}

/** The zone's offset from UTC at instant `t`, in ms. */
function offsetAt(zone: string, t: number): number {
  const w = wallTime(zone, t);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (t - (((t % 1000) + 1000) % 1000));
}

/**
 * The instant the wall clock in `zone` shows the given local date and minute. A local time that
 * does not exist (skipped by a spring-forward change) gives the instant just after the gap.
 */
export function instantOf(zone: string, year: number, month: number, day: number, minuteOfDay: number): number {
  const naive = Date.UTC(year, month - 1, day, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
  const first = naive - offsetAt(zone, naive);
  const second = naive - offsetAt(zone, first);
  return Math.max(first, second);
}

/** "2026-11-22 08:00" on the wall clock of `zone`. */
export function formatWall(t: number, zone: string, opts: { seconds?: boolean } = {}): string {
  const w = wallTime(zone, t);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}${opts.seconds ? `:${p(w.second)}` : ''}`;
}
