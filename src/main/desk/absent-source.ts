// An item's file input that this computer cannot read is named in its detail with the desk's own
// sentence (why, and what to do), so the window says it instead of guessing.
import type { JobDetail } from '../../shared/contract';

/** `where`: the desk's kind of absence, as a code the window words (`missing` is the command line's English). */
export function withAbsentSource(d: JobDetail, absentSource: (path: string, batchId: string) => string, where: 'moved' | 'elsewhere'): JobDetail {
  const v = d.sourceView;
  return v.kind === 'file' && !v.exists ? { ...d, sourceView: { ...v, missing: absentSource(v.path, d.batchId), absent: where } } : d;
}
