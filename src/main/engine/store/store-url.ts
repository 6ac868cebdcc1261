// Which store a face works on: `--store URL` or BATCHDESK_STORE; neither means the data folder's
// own SQLite file, exactly as without team mode. A shared store is a PostgreSQL database named by
// a libpq-style URL. The password may be in the URL (or in PGPASSWORD / ~/.pgpass, which the
// client reads); it is never printed: `describeStore` shows the URL without it.
import { z } from 'zod';

export const STORE_ENV = 'BATCHDESK_STORE';

export type StoreChoice = { kind: 'sqlite' } | { kind: 'postgresql'; url: string };

/** What is wrong with a store URL, or null. */
function problemOf(s: string): string | null {
  if (!URL.canParse(s)) return 'is not a URL';
  const u = new URL(s);
  if (!/^postgres(ql)?:$/.test(u.protocol)) return 'is not a PostgreSQL URL (it must start with postgresql:// or postgres://)';
  if (u.hostname === '') return 'names no server (postgresql://user@host:5432/database)';
  if (u.pathname.length <= 1) return 'names no database (postgresql://user@host:5432/database)';
  return null;
}

const PgUrl = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    const problem = problemOf(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The store chosen by the flag, else the environment, else the local file; a bad URL says what is wrong and where it came from. */
export function chooseStore(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): StoreChoice {
  const from = flag !== undefined ? '--store' : env[STORE_ENV] ? STORE_ENV : null;
  const raw = flag ?? env[STORE_ENV];
  if (from === null || raw === undefined || raw.trim() === '') return { kind: 'sqlite' };
  const r = PgUrl.safeParse(raw);
  if (!r.success) {
    throw new Error(
      `${from} ${JSON.stringify(redactUrl(raw))} ${r.error.issues[0]?.message ?? 'is not valid'}: give the team's PostgreSQL database as postgresql://user@host:5432/database, or leave ${from} out to use this computer's own data folder`,
    );
  }
  return { kind: 'postgresql', url: r.data };
}

/** The URL without its password, for messages, logs and the window (libpq also reads one from `?password=`). */
export function redactUrl(raw: string): string {
  if (!URL.canParse(raw)) return raw.replace(/:[^:@/]*@/, ':***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
  const u = new URL(raw);
  if (u.password) u.password = '***';
  if (u.searchParams.has('password')) u.searchParams.set('password', '***');
  return u.toString();
}

/** The URL as typed, its password taken out: for a command to type again, which reads it from PGPASSWORD or ~/.pgpass. */
export function urlWithoutPassword(raw: string): string {
  if (!URL.canParse(raw))
    return raw
      .replace(/:[^:@/]*@/, '@')
      .replace(/([?&])password=[^&#]*&?/gi, '$1')
      .replace(/[?&]$/, '');
  const u = new URL(raw);
  u.password = '';
  u.searchParams.delete('password');
  return u.toString();
}

export function describeStore(c: StoreChoice, dataDir: string): string {
  return c.kind === 'sqlite' ? `this computer's data folder (${dataDir})` : `the shared store ${redactUrl(c.url)}`;
}
