// An import's problems grouped by kind, so 509 refusals read as a few causes with a count and one
// example each. The kind is the message's first clause without its row and with numbers,
// addresses and phone numbers blanked: "Row 7: "0770 900" has no country code" and "Row 9: "0161
// 4960" has no country code" are one kind. Pure, so the window stays simple and it is tested alone.
import type { Problem } from '../../../shared/contract';

export interface ProblemGroup {
  kind: string;
  problems: Problem[];
}

/** The part of a message that names the cause, not the row or the value. */
export function problemKind(message: string): string {
  const withoutRow = message.replace(/^(?:\S+ )?(?:row|line) \d+(?::\s*|\s+)/i, '');
  const clause = withoutRow.split(/;\s|\.\s/)[0] ?? withoutRow;
  return clause
    .replace(/"[^"]*\d[^"]*"/g, '#')
    .replace(/\S*@\S*/g, '…')
    .replace(/\S*\d\S*/g, '#')
    .replace(/#(?: #)+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Groups in the order of their largest count first; a tie keeps the order the file gave them. */
export function groupProblems(problems: readonly Problem[]): ProblemGroup[] {
  const byKind = new Map<string, ProblemGroup>();
  for (const p of problems) {
    // A coded cause is its own kind; the others are told apart by their words.
    const kind = p.code !== undefined ? `code:${p.code.code}` : `${p.row === null ? 'file' : 'row'}:${problemKind(p.message)}`;
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
