// Problems found while importing, kept up to a limit: a million bad rows must not hold a
// million messages in memory. Past the limit they are counted and summarised in one line.
import type { ImportProblem } from './types';
import { codedProblem } from '../../../shared/problem-english';

export const MAX_LISTED_PROBLEMS = 10_000;

export class ProblemList {
  private readonly kept: ImportProblem[] = [];
  private dropped = 0;

  constructor(private readonly limit = MAX_LISTED_PROBLEMS) {}

  push(...problems: ImportProblem[]): void {
    for (const p of problems) {
      if (this.kept.length < this.limit) this.kept.push(p);
      else this.dropped++;
    }
  }

  get size(): number {
    return this.kept.length + this.dropped;
  }

  /** The kept problems, plus one line saying how many more there were. */
  toArray(source: string): ImportProblem[] {
    if (this.dropped === 0) return [...this.kept];
    return [...this.kept, codedProblem(source, null, { code: 'more_problems', dropped: this.dropped, limit: this.limit })];
  }
}
