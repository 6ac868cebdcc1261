// The password of ~/.pgpass (or PGPASSFILE) for a store URL that gives none, read here and put
// into the URL the pool is given: pg's own lookup of the file is deprecated and prints a warning
// at the first connection, on the way the README recommends. Same rules as pg's: a password in
// the URL or PGPASSWORD comes first; the file's lines are matched by host, port, database, user.
import { userInfo } from 'node:os';
import { parse } from 'pg-connection-string';
import pgpass from 'pgpass';

export async function withPgpassPassword(url: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let given: ReturnType<typeof parse>;
  try {
    given = parse(url);
  } catch {
    return url;
  }
  if (given.password || Object.prototype.hasOwnProperty.call(env, 'PGPASSWORD')) return url;
  const user = given.user || env.PGUSER || userInfo().username;
  const info = {
    host: given.host || env.PGHOST || 'localhost',
    port: given.port || env.PGPORT || '5432',
    database: given.database || env.PGDATABASE || user,
    user,
  };
  const password = await new Promise<string | undefined>((resolve) => pgpass(info, resolve));
  if (password === undefined) return url;
  let withIt: URL;
  try {
    withIt = new URL(url);
  } catch {
    return url;
  }
  // A URL without a host (a Unix socket given as ?host=/run/postgresql) has no place for it: pg's own lookup then.
  if (withIt.host === '') return url;
  if (withIt.username === '') withIt.username = user;
  withIt.password = password;
  return withIt.toString();
}
