// The exit code of `run` (here or as a team worker), from its batches at the end.
import { EXIT, type ExitCode } from './exit-codes';
import type { BatchSummary } from '../../shared/domain';
/** What a run's batches say at its end: 3 if one is paused, else 1 if any item failed, else 0. */
export function runExit(batches: readonly BatchSummary[]): ExitCode {
  if (batches.some((b) => b.status === 'paused')) return EXIT.paused;
  if (batches.some((b) => b.counts.failed > 0)) return EXIT.someFailed;
  return EXIT.ok;
}
