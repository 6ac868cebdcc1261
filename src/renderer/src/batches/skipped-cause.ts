// The `problem` cell of a row a batch's import left out, in the window's language: the same cause
// the New batch screen said when the file was dropped (a cause not coded yet: the engine's English).
import { withoutRow, type SkippedRow } from '../../../shared/skipped-rows';
import { problemCause } from '../new-batch/problem-words';

export function skippedCause(r: SkippedRow, lng?: string): string {
  return r.code === null ? withoutRow(r.message) : problemCause(r.code, lng);
}
