// Pacing per recipient: never two messages to the same person within a batch's gap, whichever
// batch of the data folder they come from. The last send to each recipient (as sent to: E.164 or
// lower-cased e-mail, the opt-out list's key) is noted when its request leaves, so a send still
// in flight counts too, and again when its answer came (`sent`): the message reached the API at
// some moment in between, so the gap counts from the later of the two and holds as the
// recipient sees it, however slowly the first request travelled. While that request is still
// running (no answer yet), the recipient is held however long ago it left: a request that waited
// for the rate limit or travelled slowly reaches the API late, and the next message must not
// overtake its gap. Checking and noting are one synchronous step on one connection, and one
// engine runs per data folder, so two jobs to the same person claimed in the same pass cannot
// both pass. A job's own retry (same message, same idempotency key) is not a second message.
import type { Db } from '../db/connection';

export type PaceDecision = { ok: true } | { ok: false; until: number; lastAt: number };

export class RecipientPacing {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.stmts = {
      last: db.prepare(
        `SELECT r.last_at AS lastAt, r.job_id AS jobId, EXISTS (SELECT 1 FROM jobs j WHERE j.id = r.job_id AND j.state = 'running') AS inFlight
           FROM recipient_sends r WHERE r.recipient = ?`,
      ),
      sent: db.prepare(`UPDATE recipient_sends SET last_at = MAX(last_at, @now) WHERE recipient = @recipient AND job_id = @job`),
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
  take(recipient: string, jobId: number, gapMs: number): PaceDecision {
    const now = this.now();
    if (gapMs > 0) {
      const last = this.stmts.last.get(recipient) as { lastAt: number; jobId: number | null; inFlight: 0 | 1 } | undefined;
      if (last && last.jobId !== jobId) {
        // In flight: its answer comes at the earliest now, so the next may go a gap after that at the earliest.
        if (last.inFlight === 1) return { ok: false, until: Math.max(last.lastAt, now) + gapMs, lastAt: last.lastAt };
        if (now < last.lastAt + gapMs) return { ok: false, until: last.lastAt + gapMs, lastAt: last.lastAt };
      }
    }
    this.stmts.note.run({ recipient, now, job: jobId });
    return { ok: true };
  }

  /** Job `jobId`'s request to `recipient` has its answer (or failed): the gap counts from now. */
  sent(recipient: string, jobId: number): void {
    this.stmts.sent.run({ recipient, now: this.now(), job: jobId });
  }
}
