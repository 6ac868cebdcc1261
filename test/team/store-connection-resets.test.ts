// Team mode when the connection to the shared store is reset (a router restarted, a VPN dropped):
// a TCP proxy of the test's own sits between the built CLI and a real PostgreSQL and resets every
// connection when the CLI sends a chosen statement. Whatever the moment, the command names the
// store (its password hidden), says why and what to do, and exits 4; never a stack trace. A worker
// already under way pauses, says so, and carries on.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { createSharedBatch, jobStates, keyEnv, query, sleep, useTeamRig, writeChannelCsv, type TeamRig } from '../helpers/team-run';

/** Every statement of the schema step a command starts with (pg-migrations.ts migratePg), on an up-to-date store. */
const SCHEMA_STEP = [
  'BEGIN',
  'SET LOCAL statement_timeout',
  'pg_advisory_xact_lock',
  'CREATE TABLE IF NOT EXISTS batchdesk_schema',
  'SELECT max(version)',
  'COMMIT',
];
const PASSWORD = 'pw-never-shown';

/** The store's URL with a password in it (the test cluster trusts every login, so it is not checked), through `proxy`. */
function viaProxy(proxy: TcpProxy, url: string): string {
  const u = new URL(proxy.url(url));
  u.password = PASSWORD;
  return u.toString();
}

function expectNamedUnreachable(r: CliResult, proxy: TcpProxy, what: string): void {
  expect(r.code, `${what}: ${r.stderr}`).toBe(4);
  expect(r.stderr, what).toMatch(
    new RegExp(
      `The shared store postgresql://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port}/\\S+ cannot be reached \\((read ECONNRESET|Connection terminated unexpectedly)\\)\\. Check that the PostgreSQL server is running`,
    ),
  );
  expect(r.stderr, what).not.toContain(PASSWORD);
  // No stack trace, no unhandled 'error' event.
  expect(r.stderr, what).not.toMatch(/^\s+at |node:events|Unhandled/m);
}

type Command = (url: string) => Promise<CliResult>;

function commands(rig: TeamRig, csv: string): Record<string, Command> {
  const { sb, dir } = rig;
  const dataDir = join(dir.path, 'desk');
  const common = ['--data-dir', dataDir, '--api-url', sb.url];
  return {
    status: (url) => runCli(['status', '--store', url, ...common], keyEnv(sb)),
    run: (url) => runCli(['run', '--store', url, ...common], keyEnv(sb)),
    'batch create': (url) => runCli(['batch', 'create', 'channel', csv, '--allow-resend', '--store', url, ...common], keyEnv(sb)),
  };
}

describe('team: the store connection reset while a command starts or works', () => {
  const rig = useTeamRig('batchdesk-team-resets-', { seed: 5 });

  it('a reset at each statement of the schema step: status, run and batch create name the store and exit 4', async () => {
    const r = rig();
    const db = await r.cluster.freshDatabase('resets');
    const csv = join(r.dir.path, 'customers.csv');
    writeChannelCsv(csv, 3);
    // The schema is made once beforehand: each command then runs the step an up-to-date store sees.
    expect((await runCli(['status', '--store', db, '--data-dir', join(r.dir.path, 'first')])).code).toBe(0);
    for (const [name, command] of Object.entries(commands(r, csv))) {
      for (const statement of SCHEMA_STEP) {
        const proxy = await startTcpProxy(r.cluster.port);
        try {
          const reset = proxy.resetWhen(statement, 'before');
          const result = await command(viaProxy(proxy, db));
          await reset;
          expectNamedUnreachable(result, proxy, `${name}, reset at ${statement}`);
        } finally {
          await proxy.close();
        }
      }
    }
    // Nothing was created by the batch creates that failed.
    const [row] = await query<{ n: string }>(db, `SELECT count(*) AS n FROM batches WHERE ready = 1`);
    expect(Number(row?.n)).toBe(0);
  }, 120_000);

  it('a reset after the store was opened: the command names it too, not "read ECONNRESET" alone', async () => {
    const r = rig();
    const db = await r.cluster.freshDatabase('later');
    const csv = join(r.dir.path, 'later.csv');
    writeChannelCsv(csv, 3);
    const id = await createSharedBatch({ storeUrl: db, dataDir: join(r.dir.path, 'planner'), sb: r.sb, csv, name: 'later' });
    const cases: [string, string[], string][] = [
      ['status', ['status'], 'FROM batches'],
      ['status (the store clock)', ['status'], 'clock_timestamp'],
      ['pause', ['pause', id], "SET status = 'paused'"],
      ['export', ['export', id, '--format', 'csv', '--out', join(r.dir.path, 'out.csv')], 'FROM jobs'],
    ];
    for (const [what, args, statement] of cases) {
      const proxy = await startTcpProxy(r.cluster.port);
      try {
        const reset = proxy.resetWhen(statement, 'before');
        const result = await runCli([...args, '--store', viaProxy(proxy, db), '--data-dir', join(r.dir.path, 'desk')], keyEnv(r.sb));
        await reset;
        expectNamedUnreachable(result, proxy, what);
      } finally {
        await proxy.close();
      }
    }
  }, 60_000);

  it('a worker whose connection is reset as it starts its batches pauses, says so, and sends them once', async () => {
    const r = rig();
    const db = await r.cluster.freshDatabase('worker');
    const csv = join(r.dir.path, 'worker.csv');
    writeChannelCsv(csv, 20);
    const id = await createSharedBatch({ storeUrl: db, dataDir: join(r.dir.path, 'planner'), sb: r.sb, csv, name: 'worker' });
    await r.admin.reset();
    const proxy = await startTcpProxy(r.cluster.port);
    try {
      // The worker's first statements after the schema step and the clock: reading the batch it
      // was given and starting it. Each reset is armed once the one before has happened.
      const resets = (async () => {
        for (const statement of ['FROM batches', 'SET started_at']) {
          await Promise.race([proxy.resetWhen(statement, 'before'), sleep(20_000)]);
        }
      })();
      const result = await runCli(['run', id, '--store', viaProxy(proxy, db), '--data-dir', join(r.dir.path, 'w'), '--api-url', r.sb.url], keyEnv(r.sb));
      await resets;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(`The shared store postgresql://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port}/\\S+ cannot be reached \\(.+\\)\\. This worker pauses`),
      );
      expect(result.stderr).toContain('The shared store is back: carrying on.');
      expect(result.stderr).not.toContain(PASSWORD);
      expect(await jobStates(db, id)).toEqual([{ state: 'succeeded', n: 20 }]);
      const ledger = await r.admin.ledger();
      expect(ledger).toHaveLength(20);
      expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(20);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
