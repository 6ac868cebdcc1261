// A browser drop is read by a batch being made from it and swept by the hourly sweep
// (upload-sweep.ts), both in the engine's process. Without a lock, a sweep that read a drop's
// mark just before a create touched it would remove the files the create is reading. A create
// holds its drops from before it touches their marks until its import is written; the sweep
// settles a drop only when no create holds it, and a create that arrives while a drop is being
// settled waits for the settling to end (its files are then gone, and the create says so).

export class DropLocks {
  private readonly creating = new Map<string, number>();
  private readonly settling = new Map<string, Promise<void>>();

  /** A batch is being made from these drops: held until the returned release is called. */
  async forCreate(sessions: readonly string[]): Promise<() => void> {
    const held = [...new Set(sessions)];
    // Counted before waiting: a sweep that has not begun settling them now leaves them alone.
    for (const s of held) this.creating.set(s, (this.creating.get(s) ?? 0) + 1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      for (const s of held) {
        const n = (this.creating.get(s) ?? 1) - 1;
        if (n === 0) this.creating.delete(s);
        else this.creating.set(s, n);
      }
    };
    try {
      await Promise.all(held.map((s) => this.settling.get(s)));
    } catch (e) {
      release();
      throw e;
    }
    return release;
  }

  /** The sweep may settle this drop now: null while a batch is being made from it (looked at next sweep). */
  trySettle(session: string): (() => void) | null {
    if (this.creating.has(session) || this.settling.has(session)) return null;
    let done = (): void => undefined;
    this.settling.set(
      session,
      new Promise<void>((r) => {
        done = r;
      }),
    );
    return () => {
      this.settling.delete(session);
      done();
    };
  }
}
