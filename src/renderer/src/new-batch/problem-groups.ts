// An import's problems grouped by kind, so 509 refusals read as a few causes with a count and one
// example each. The kind is the problem's code, whatever its row and values. Pure, so the window
// stays simple and it is tested alone.
import type { Problem } from '../../../shared/contract';

export interface ProblemGroup {
  kind: string;
  problems: Problem[];
}

/** Groups in the order of their largest count first; a tie keeps the order the file gave them. */
export function groupProblems(problems: readonly Problem[]): ProblemGroup[] {
  const byKind = new Map<string, ProblemGroup>();
  for (const p of problems) {
    // Every problem has a code: each code is its own kind.
    const kind = `code:${p.code.code}`;
    const g = byKind.get(kind);
    if (g) g.problems.push(p);
    else byKind.set(kind, { kind, problems: [p] });
  }
  return [...byKind.values()].sort((a, b) => b.problems.length - a.problems.length);
}

/** The CSV files whose rows were refused, with those rows' problems (what "Download rejected rows" takes back). */
export function rejectedRowsBySource(problems: readonly Problem[]): { source: string; problems: (Problem & { row: number })[] }[] {
  const out = new Map<string, (Problem & { row: number })[]>();
  for (const p of problems) {
    if (p.row === null || p.row < 1 || !/\.csv$/i.test(p.source)) continue;
    const list = out.get(p.source) ?? [];
    list.push({ ...p, row: p.row });
    out.set(p.source, list);
  }
  return [...out.entries()].map(([source, list]) => ({ source, problems: list }));
}
