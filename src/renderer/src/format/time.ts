// Durations, throughput, counts and timestamps as people read them, in the OS's locale.
import { formatLocale, t } from '../i18n';

function number(n: number, maximumFractionDigits = 0): string {
  return n.toLocaleString(formatLocale(), { maximumFractionDigits });
}

export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) return '—';
  const s = Math.round(totalSeconds);
  if (s < 60) return t('duration.seconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('duration.minutes', { m, s: String(s % 60).padStart(2, '0') });
  const h = Math.floor(m / 60);
  if (h < 48) return t('duration.hours', { h, m: String(m % 60).padStart(2, '0') });
  return t('duration.days', { d: Math.floor(h / 24), h: h % 24 });
}

export function formatThroughput(perSecond: number): string {
  if (perSecond >= 10) return t('throughput.perSecond', { n: number(perSecond) });
  if (perSecond >= 1) return t('throughput.perSecond', { n: number(perSecond, 1) });
  if (perSecond >= 1 / 60) return t('throughput.perMinute', { n: number(perSecond * 60, 1) });
  return t('throughput.perHour', { n: number(perSecond * 3600, 1) });
}

/** Whether the locale reads the clock in 12 hours ("5:45 AM") rather than 24 ("05:45"). */
function twelveHour(locale: string): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12';
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The window's one date-time format: numeric date, hours:minutes, seconds only where asked. */
function dateTimeFormat(seconds: boolean, zone: string | null = null): Intl.DateTimeFormat {
  const locale = formatLocale();
  const key = `${locale}/${seconds ? 's' : 'm'}/${zone ?? ''}`;
  let f = dateTimeFormats.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      // 24-hour clocks pad the hour ("05:45"); 12-hour ones do not ("5:45 AM").
      hour: twelveHour(locale) ? 'numeric' : '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      ...(zone !== null ? { timeZone: zone } : {}),
    });
    dateTimeFormats.set(key, f);
  }
  return f;
}

function clockFormat(seconds: boolean): Intl.DateTimeFormat {
  const locale = formatLocale();
  return new Intl.DateTimeFormat(locale, { hour: twelveHour(locale) ? 'numeric' : '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
}

/** "30.11.2026, 05:45" (de), "30/11/2026, 05:45" (en-GB), "11/30/2026, 5:45 AM" (en-US). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateTimeFormat(false).format(d);
}

/** With seconds, where they matter: an attempt's or a history's timeline. */
export function formatDateTimeSeconds(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateTimeFormat(true).format(d);
}

/** A wall time given in UTC figures (kept as they are, not moved to this computer's zone). */
export function formatWallDateTime(d: Date, seconds: boolean): string {
  return dateTimeFormat(seconds, 'UTC').format(d);
}

/** "05:45" or "5:45 AM": a time today. */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return clockFormat(false).format(d);
}

export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? t('latency.ms', { n: number(ms) }) : t('latency.s', { n: number(ms / 1000, 1) });
}

export function formatCount(n: number): string {
  return number(n);
}

/** A position in a recording: `m:ss.s`, or `h:mm:ss.s` from an hour on (tenths, rounded down). */
export function formatOffset(seconds: number): string {
  const tenths = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * 10 + 1e-6) : 0;
  const s = Math.floor(tenths / 10);
  const sec = `${String(s % 60).padStart(2, '0')}.${tenths % 10}`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}:${sec}` : `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${sec}`;
}

/** "08:00" in a named zone (the recipients' quiet hours are theirs, not this computer's). */
export function formatTimeIn(iso: string, zone: string | null): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return d.toLocaleTimeString(formatLocale(), { hour: '2-digit', minute: '2-digit', ...(zone ? { timeZone: zone } : {}) });
  } catch {
    return d.toLocaleTimeString(formatLocale(), { hour: '2-digit', minute: '2-digit' });
  }
}
