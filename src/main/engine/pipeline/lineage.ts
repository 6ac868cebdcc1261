// A pipeline as a tree of batches (a batch may have several follow-ups): who comes before a batch,
// what comes after it, and how many items the steps before it still work on. Pure functions
// over the members' rows, so the engine, the runner and the summaries read one definition.
import type { Member } from './pipeline-store';

export class Lineage {
  private readonly byId = new Map<string, Member>();
  private readonly children = new Map<string, string[]>();

  constructor(readonly members: readonly Member[]) {
    for (const m of members) {
      this.byId.set(m.id, m);
      if (m.parent_id === null) continue;
      const siblings = this.children.get(m.parent_id);
      if (siblings) siblings.push(m.id);
      else this.children.set(m.parent_id, [m.id]);
    }
  }

  get(id: string): Member | undefined {
    return this.byId.get(id);
  }

  /** The batches whose results this one takes, nearest first (not the batch itself). */
  ancestors(id: string): Member[] {
    const out: Member[] = [];
    const seen = new Set<string>([id]);
    for (let p = this.byId.get(id)?.parent_id ?? null; p !== null && !seen.has(p); p = this.byId.get(p)?.parent_id ?? null) {
      seen.add(p);
      const m = this.byId.get(p);
      if (!m) break;
      out.push(m);
    }
    return out;
  }

  /** The batch and every batch after it. */
  subtree(id: string): string[] {
    const out: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const b = stack.pop();
      if (b === undefined || out.includes(b)) continue;
      out.push(b);
      stack.push(...(this.children.get(b) ?? []));
    }
    return out;
  }

  /** Batches that take this one's results. */
  next(id: string): string[] {
    return this.children.get(id) ?? [];
  }

  /** Items still open in the steps before `id`, each of which may flow into it. */
  awaiting(id: string, open: (batchId: string) => number): number {
    let n = 0;
    for (const a of this.ancestors(id)) {
      // Nothing gets past a cancelled step.
      if (a.status === 'cancelled') break;
      n += open(a.id);
    }
    return n;
  }

  /** True while the step has items open, or the steps before it still work on items that may flow into it. */
  hasWorkLeft(id: string, open: (batchId: string) => number): boolean {
    return open(id) + this.awaiting(id, open) > 0;
  }

  /**
   * What `cancel` acts on: the steps not cancelled with work left (`live`), and the finished ones,
   * which stay as they are. `all`: every step not cancelled is live (a watched folder's batch of
   * today takes the folder's next files, finished or not).
   */
  cancelling(open: (batchId: string) => number, all = false): { live: Member[]; finished: Member[] } {
    const live: Member[] = [];
    const finished: Member[] = [];
    for (const m of this.members) {
      if (m.status === 'cancelled') continue;
      (all || this.hasWorkLeft(m.id, open) ? live : finished).push(m);
    }
    return { live, finished };
  }

  /** The budgets that cover `id`: its own and those of the steps before it, nearest first. */
  budgetHolders(id: string): Member[] {
    return [this.get(id), ...this.ancestors(id)].filter((m): m is Member => m !== undefined && m.budget !== null);
  }

  /** True for a batch of more than one step. */
  get chained(): boolean {
    return this.members.length > 1;
  }
}
