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

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(formatLocale(), { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleTimeString(formatLocale(), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
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
