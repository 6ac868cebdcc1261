// Pacing per recipient: never two messages to the same person within a batch's gap, whichever
// batch of the data folder they come from. The last send to each recipient (as sent to: E.164 or
// lower-cased e-mail, the opt-out list's key) is noted when its request leaves, so a send still
// in flight counts too. Checking and noting are one synchronous step on one connection, and one
// engine runs per data folder, so two jobs to the same person claimed in the same pass cannot
// both pass. A job's own retry (same message, same idempotency key) is not a second message.
import type { Db } from '../db/connection';

export type PaceDecision = { ok: true } | { ok: false; until: number; lastAt: number };

export class RecipientPacing {
  private readonly stmts;
  /** Sends noted but not yet written (the write waits for the runner's next group commit). */
  private readonly pending = new Map<string, { lastAt: number; jobId: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.stmts = {
      last: db.prepare(`SELECT last_at AS lastAt, job_id AS jobId FROM recipient_sends WHERE recipient = ?`),
      note: db.prepare(
        `INSERT INTO recipient_sends (recipient, last_at, job_id) VALUES (@recipient, @now, @job)
         ON CONFLICT (recipient) DO UPDATE SET last_at = MAX(last_at, excluded.last_at), job_id = excluded.job_id`,
      ),
    };
  }

  /**
   * May job `jobId` message `recipient` now, with `gapMs` between two messages to them? If so,
   * the send is noted at once (before the caller's next await), else the time it may go.
   */
  take(recipient: string, jobId: number, gapMs: number, write: (fn: () => void) => void = (fn) => fn()): PaceDecision {
    const now = this.now();
    if (gapMs > 0) {
      const last = this.pending.get(recipient) ?? (this.stmts.last.get(recipient) as { lastAt: number; jobId: number | null } | undefined);
      if (last && last.jobId !== jobId && now < last.lastAt + gapMs) return { ok: false, until: last.lastAt + gapMs, lastAt: last.lastAt };
    }
    // Noted in memory at once (the next job to this recipient sees it), on disk with the group.
    const noted = { lastAt: now, jobId };
    this.pending.set(recipient, noted);
    write(() => {
      this.stmts.note.run({ recipient, now, job: jobId });
      if (this.pending.get(recipient) === noted) this.pending.delete(recipient);
    });
    return { ok: true };
  }
}
