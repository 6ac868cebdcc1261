// A throw-away PostgreSQL cluster for the team-mode tests: initdb into a temp folder, postgres on a
// free port of 127.0.0.1 (and a socket in the same folder), removed after. Debian's package
// keeps initdb and postgres under /usr/lib/postgresql/<version>/bin, off the PATH. PostgreSQL
// refuses to run as root, so as root (CI here) the cluster belongs to the package's `postgres`
// user and its commands run through runuser.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** postgresql://… of the cluster's `postgres` database (superuser, trust auth). */
  adminUrl: string;
  port: number;
  /** A new empty database; its URL. */
  freshDatabase(prefix?: string): Promise<string>;
  /** Stops the server as a crash or an operator would (fast: connections are cut), then starts it again. */
  restart(opts?: { downMs?: number }): Promise<void>;
  stop(): void;
  start(): void;
  /** Stops the server and removes the cluster's folder. */
  destroy(): void;
}

/** The newest installed PostgreSQL's bin folder, or null when the package is missing. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = userInfo().uid === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
}

/** The one role of a test cluster that needs its password (created by the test that uses it). */
export const PASSWORD_ROLE = 'batchdesk_pw';

/**
 * The time a hook that starts a cluster gets: initdb and the server's start take a few seconds,
 * and over a minute on a 2-core machine at load 20 (the default hook time is 60 s).
 */
export const PG_START_MS = 240_000;

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: `apt-get install postgresql` (.ci/run does it on a fresh machine)');
  const dir = mkdtempSync(join(tmpdir(), 'batchdesk-pg-'));
  if (asRoot) {
    const pgUser = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(pgUser.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  // Every role logs in without a password (trust) except PASSWORD_ROLE, which must give one: the
  // tests of a store URL without its password (~/.pgpass, or what is said when there is none).
  const hba = join(data, 'pg_hba.conf');
  writeFileSync(hba, `host all ${PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
  const port = await freePort();
  const log = join(dir, 'server.log');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c shared_buffers=32MB`;
  const start = (): void => run(join(bin, 'pg_ctl'), ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options]);
  const stop = (): void => {
    if (existsSync(join(data, 'postmaster.pid'))) run(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
  };
  start();
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  // A test process that dies leaves no server behind.
  const onExit = (): void => {
    try {
      stop();
    } catch {
      /* already down */
    }
  };
  process.once('exit', onExit);
  let n = 0;
  return {
    adminUrl,
    port,
    async freshDatabase(prefix = 't') {
      const name = `${prefix}_${process.pid}_${++n}`;
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart(opts = {}) {
      stop();
      if (opts.downMs) await new Promise((r) => setTimeout(r, opts.downMs));
      start();
    },
    stop,
    start,
    destroy() {
      process.removeListener('exit', onExit);
      onExit();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
