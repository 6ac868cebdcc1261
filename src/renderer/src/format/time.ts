// Durations, throughput and timestamps as people read them.

export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) return '—';
  const s = Math.round(totalSeconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function formatThroughput(perSecond: number): string {
  if (perSecond >= 10) return `${perSecond.toFixed(0)} items/s`;
  if (perSecond >= 1) return `${perSecond.toFixed(1)} items/s`;
  if (perSecond >= 1 / 60) return `${(perSecond * 60).toFixed(1)} items/min`;
  return `${(perSecond * 3600).toFixed(1)} items/h`;
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
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
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', ...(zone ? { timeZone: zone } : {}) });
  } catch {
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }
}
