// One reading of an HTTP Range header (a single byte range), for the browser host and the
// desktop app:// protocol alike; the audio player seeks with it.
export type RangeRequest = { start: number; end: number } | 'unsatisfiable' | null;

export function parseByteRange(header: string | null | undefined, size: number): RangeRequest {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!m || size <= 0 || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}
