// The rows an import left out, read back from their CSV while it is at hand (at creation) to be
// kept with the batch: its header and each refused row's cells, with the problem's code and words.
import type { SkippedRow } from '../../../shared/skipped-rows';
import { readCsvRows } from './rejected-rows';
import type { ImportProblem } from './types';

/** Most rows kept per batch: the importer lists at most this many problems anyway (the rest are counted). */
export const SKIPPED_ROWS_LIMIT = 100_000;

/**
 * The refused rows of `problems` that name a row of a CSV, with their cells. A file that cannot be
 * read again (moved since the preview) keeps its rows with no cells: the problem and row still say
 * which and why.
 */
export async function skippedRowsOf(problems: readonly ImportProblem[]): Promise<SkippedRow[]> {
  const bySource = new Map<string, ImportProblem[]>();
  for (const p of problems.slice(0, SKIPPED_ROWS_LIMIT)) {
    if (p.row === null || p.row < 1 || !/\.csv$/i.test(p.source)) continue;
    bySource.set(p.source, [...(bySource.get(p.source) ?? []), p]);
  }
  const out: SkippedRow[] = [];
  for (const [source, list] of bySource) {
    const read = await readCsvRows(source, new Set(list.map((p) => p.row ?? 0))).catch(() => ({ header: [], found: new Map<number, string[]>() }));
    for (const p of list) {
      const row = p.row ?? 0;
      out.push({ source, row, header: read.header, cells: read.found.get(row) ?? [], code: p.code ?? null, message: p.message });
    }
  }
  return out;
}
