// Durations as people type them (a recipient gap): "10m", "90s", "2h", "1h30m", "1d".

/** "10m", "90s", "2h", "1h30m", "1d" -> ms; null when not a duration. */
export function parseGap(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === '0') return 0;
  const re = /\s*(\d+)\s*(d|h|min|m|s)/gy;
  let ms = 0;
  let seen = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    seen = re.lastIndex;
    const n = Number(m[1]);
    ms += n * (m[2] === 'd' ? 86_400_000 : m[2] === 'h' ? 3_600_000 : m[2] === 's' ? 1_000 : 60_000);
  }
  return seen === t.length && seen > 0 ? ms : null;
}

/** 600000 -> "10m", 5400000 -> "1h30m". */
export function formatGap(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, s] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= s) {
      parts.push(`${Math.floor(rest / s)}${unit}`);
      rest %= s;
    }
  }
  return parts.join('') || '0s';
}
