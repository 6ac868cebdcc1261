// The opt-out (suppression) list: recipients who must not be messaged, kept in the data folder.
// Recipients are stored as they are sent to (E.164 numbers, lower-cased e-mail addresses), so a
// number written "+44 20 7946 0123" in one file and "+442079460123" in another is one person.
// Checked when a batch is created and again just before each send.
import type { Db } from '../db/connection';
import { normalizeEmail, normalizePhone, type Recipient } from './recipient';
import { FORGET_SECRET_SETTING, FORGOTTEN_PREFIX, FORGOTTEN_RECIPIENT, forgottenRecipient } from './forgotten-recipient';

export interface OptOut {
  recipient: string;
  /** ms since the epoch */
  addedAt: number;
  /** Where it came from: "batchdesk optout add", "customers.csv row 7", "import unsubscribed.csv line 3". */
  source: string;
}

/** A recipient as written -> as sent to (an e-mail address when it has an @, else a phone number). */
export function optOutKey(raw: string): Recipient {
  return raw.includes('@') ? normalizeEmail(raw) : normalizePhone(raw);
}

/**
 * What an opt_out cell says: yes (yes, y, true, 1, x, ja, opted out, unsubscribe(d)), no (empty,
 * no, n, false, 0, nein), or something else, which is not guessed: the row is held back so nobody
 * is messaged against their wish because of a spelling.
 */
export function optOutValue(v: string): 'yes' | 'no' | 'unclear' {
  const t = v.trim().toLowerCase();
  if (/^(yes|y|true|1|x|ja|oui|si|sí|opted[ -_]?out|opt[ -_]?out|unsubscribed?|stop|✓|✔)$/.test(t)) return 'yes';
  if (/^(|no|n|false|0|nein|non|-)$/.test(t)) return 'no';
  return 'unclear';
}

/** The column of a message CSV that marks a recipient as opted out: opt_out (opt-out, optout, opted_out, unsubscribed). */
export const OPT_OUT_COLUMN = /^(opt[-_ ]?out|opted[-_ ]?out|unsubscribed?)$/i;

/** True for the entry of a person who asked to be forgotten: only their keyed hash is kept. */
export function isForgotten(o: Pick<OptOut, 'recipient'>): boolean {
  return o.recipient.startsWith(FORGOTTEN_PREFIX);
}

/** An entry in words; a forgotten person's is never named by its hash (nor by its source, which named them). */
export function describeOptOut(o: OptOut, list = 'the opt-out list'): string {
  const since = new Date(o.addedAt).toISOString().slice(0, 10);
  return isForgotten(o) ? `${FORGOTTEN_RECIPIENT}, on ${list} since ${since}` : `${o.recipient} is on ${list} (since ${since}, from ${o.source})`;
}

export class OptOutList {
  private readonly stmts;
  /** The data folder's forget secret once there is one (it never changes once made). */
  private secret: Buffer | null = null;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.stmts = {
      find: db.prepare(`SELECT recipient, added_at AS addedAt, source FROM opt_outs WHERE recipient = ?`),
      add: db.prepare(`INSERT INTO opt_outs (recipient, added_at, source) VALUES (?, ?, ?) ON CONFLICT (recipient) DO NOTHING`),
      remove: db.prepare(`DELETE FROM opt_outs WHERE recipient = ?`),
      list: db.prepare(`SELECT recipient, added_at AS addedAt, source FROM opt_outs ORDER BY added_at, recipient`),
      count: db.prepare(`SELECT COUNT(*) AS n FROM opt_outs`),
      secret: db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck(),
    };
  }

  /** The entry of a recipient as sent to (normalised), or null; a forgotten person's entry is found by its keyed hash. */
  find(recipient: string): OptOut | null {
    const plain = this.stmts.find.get(recipient) as OptOut | undefined;
    if (plain) return plain;
    const secret = this.forgetSecret();
    return secret === null ? null : ((this.stmts.find.get(forgottenRecipient(recipient, secret)) as OptOut | undefined) ?? null);
  }

  /** Read until there is one: another process (`batchdesk forget`) may make it while this one runs. */
  private forgetSecret(): Buffer | null {
    if (this.secret === null) {
      const hex = this.stmts.secret.get(FORGET_SECRET_SETTING) as string | undefined;
      if (hex !== undefined) this.secret = Buffer.from(hex, 'hex');
    }
    return this.secret;
  }

  /**
   * `find` for one import: lists repeat recipients, so each is looked up once (up to a bound;
   * past it the answers are forgotten and looked up again, so memory stays flat).
   */
  finder(limit = 50_000): (recipient: string) => OptOut | null {
    const answers = new Map<string, OptOut | null>();
    return (recipient) => {
      const known = answers.get(recipient);
      if (known !== undefined) return known;
      const found = this.find(recipient);
      if (answers.size >= limit) answers.clear();
      answers.set(recipient, found);
      return found;
    };
  }

  /** Adds a normalised recipient; false when it was on the list already. */
  add(recipient: string, source: string): boolean {
    return this.stmts.add.run(recipient, this.now(), source).changes === 1;
  }

  /** Takes a recipient off the list, also a forgotten one (their entry is found by its keyed hash). */
  remove(recipient: string): boolean {
    if (this.stmts.remove.run(recipient).changes === 1) return true;
    const secret = this.forgetSecret();
    return secret !== null && this.stmts.remove.run(forgottenRecipient(recipient, secret)).changes === 1;
  }

  list(): OptOut[] {
    return this.stmts.list.all() as OptOut[];
  }

  count(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
