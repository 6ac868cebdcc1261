// `batch create --store` when the connection to the shared store drops around the commit that
// makes the batch visible (its seal): a TCP proxy of the test's own resets every connection right
// after the server ran that COMMIT (its answer lost) or right before the COMMIT reached it. The
// command asks the store which it was and says so: created (exit 0, the batch there once, nothing
// left in this data folder to send twice), or not created (exit 4, nothing kept anywhere, and the
// same command run again makes it). A follow-up (`--from ID --store`) alike.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli';
import { startTcpProxy } from '../helpers/tcp-proxy';
import { keyEnv, query, recordings, useTeamRig, writeChannelCsv } from '../helpers/team-run';

const ROWS = 12;
/** The seal's UPDATE, then its transaction's COMMIT (PgQueueStore.sealAll / sealFollowers). */
const SEAL_COMMIT = ['SET ready = 1', 'COMMIT'];

describe('team: the connection drops around the commit of a batch create', () => {
  const rig = useTeamRig('batchdesk-team-uncertain-', { seed: 9 });

  /** A fresh store, a channel CSV and how to run `batch create --store` on it (through `via` when given). */
  async function setup(name: string): Promise<{ db: string; create: (url: string) => Promise<CliResult>; localStatus: () => Promise<CliResult> }> {
    const { cluster, sb, dir } = rig();
    const db = await cluster.freshDatabase(name);
    const csv = join(dir.path, `${name}.csv`);
    writeChannelCsv(csv, ROWS);
    const desk = join(dir.path, `desk-${name}`);
    return {
      db,
      create: (url) => runCli(['batch', 'create', 'channel', csv, '--name', name, '--store', url, '--data-dir', desk, '--api-url', sb.url], keyEnv(sb)),
      localStatus: () => runCli(['status', '--json', '--data-dir', desk, '--api-url', sb.url], keyEnv(sb)),
    };
  }

  async function sealedBatches(db: string): Promise<{ id: string; total: number; jobs: number }[]> {
    return (
      await query<{ id: string; total: number; jobs: string }>(
        db,
        `SELECT b.id, b.total, (SELECT count(*) FROM jobs j WHERE j.batch_id = b.id) AS jobs FROM batches b WHERE b.ready = 1 ORDER BY b.created_at`,
      )
    ).map((r) => ({ id: r.id, total: Number(r.total), jobs: Number(r.jobs) }));
  }

  async function localBatches(status: () => Promise<CliResult>): Promise<unknown[]> {
    const r = await status();
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { batches: unknown[] }).batches;
  }

  it('the COMMIT went through but its answer was lost: says the batch was created, and keeps no copy here', async () => {
    const { cluster } = rig();
    const { db, create, localStatus } = await setup('made');
    const proxy = await startTcpProxy(cluster.port);
    try {
      const reset = proxy.resetWhen(SEAL_COMMIT, 'after');
      const r = await create(proxy.url(db));
      await reset;
      expect(r.code, r.stderr).toBe(0);
      const id = /Created batch (\S+) in the shared store/.exec(r.stdout)?.[1] ?? '';
      expect(r.stderr).toContain(`dropped as batch ${id} was committed (read ECONNRESET); the store says it was created.`);
      expect(await sealedBatches(db)).toEqual([{ id, total: ROWS, jobs: ROWS }]);
      // Only the team sends it: this data folder has nothing left to send twice.
      expect(await localBatches(localStatus)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('the COMMIT never reached the server: says it was not created, keeps nothing, and the same command then makes it', async () => {
    const { cluster } = rig();
    const { db, create, localStatus } = await setup('lost');
    const proxy = await startTcpProxy(cluster.port);
    try {
      const reset = proxy.resetWhen(SEAL_COMMIT, 'before');
      const r = await create(proxy.url(db));
      await reset;
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(
        new RegExp(
          `Batch \\S+ was not created in the shared store postgresql://postgres@127\\.0\\.0\\.1:${proxy.port}/\\S+: the connection dropped before it was committed \\(read ECONNRESET\\)\\. Nothing of it is kept: run the same command again\\.`,
        ),
      );
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(await sealedBatches(db)).toEqual([]);
      // Nothing half made is left in the store either.
      expect(await query(db, `SELECT id FROM batches`)).toEqual([]);
      expect(await localBatches(localStatus)).toEqual([]);

      const again = await create(proxy.url(db));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('already in');
      const id = /Created batch (\S+) in the shared store/.exec(again.stdout)?.[1] ?? '';
      expect(await sealedBatches(db)).toEqual([{ id, total: ROWS, jobs: ROWS }]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('dropped while the items were being moved, before any commit of the seal: not created, and the same command then makes it', async () => {
    const { cluster } = rig();
    const { db, create, localStatus } = await setup('early');
    const proxy = await startTcpProxy(cluster.port);
    try {
      const reset = proxy.resetWhen('INSERT INTO jobs', 'before');
      const r = await create(proxy.url(db));
      await reset;
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(
        /was not created in the shared store postgresql:\/\/\S+: the connection dropped before it was committed \(read ECONNRESET\)\. Nothing of it is kept: run the same command again once the store can be reached\./,
      );
      expect(await localBatches(localStatus)).toEqual([]);
      const again = await create(proxy.url(db));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('already in');
      expect((await sealedBatches(db)).map((b) => b.total)).toEqual([ROWS]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a follow-up (--from ID --store): created when its seal went through, else removed so the same command makes it', async () => {
    const { cluster, sb, dir } = rig();
    const db = await cluster.freshDatabase('follow');
    const desk = join(dir.path, 'desk-follow');
    const common = ['--data-dir', desk, '--api-url', sb.url];
    const made = await runCli(['batch', 'create', 'transcribe', recordings(dir.path, 'calls', 4), '--json', '--store', db, ...common], keyEnv(sb));
    expect(made.code, made.stderr).toBe(0);
    const parent = (JSON.parse(made.stdout) as { batch: { id: string } }).batch.id;
    const sent = await runCli(['run', parent, '--store', db, ...common], keyEnv(sb));
    expect(sent.code, sent.stderr).toBe(0);
    const follow = (url: string): Promise<CliResult> =>
      runCli(['batch', 'create', 'text', '--task', 'summary', '--from', parent, '--store', url, ...common], keyEnv(sb));
    const followers = async (): Promise<{ id: string; ready: number; jobs: string }[]> =>
      query(db, `SELECT id, ready, (SELECT count(*) FROM jobs j WHERE j.batch_id = b.id) AS jobs FROM batches b WHERE parent_id = $1`, [parent]);

    const proxy = await startTcpProxy(cluster.port);
    try {
      // Not created: what was linked is removed, so it is not "already followed" the next time.
      let reset = proxy.resetWhen(SEAL_COMMIT, 'before');
      const lost = await follow(proxy.url(db));
      await reset;
      expect(lost.code, lost.stderr).toBe(4);
      expect(lost.stderr).toMatch(
        /Batch \S+ was not created in the shared store postgresql:\/\/\S+: the connection dropped before it was committed \(read ECONNRESET\)\. Nothing of it is kept: run the same command again\./,
      );
      expect(await followers()).toEqual([]);

      // Created, its answer lost: said so, and there once with every parent item.
      reset = proxy.resetWhen(SEAL_COMMIT, 'after');
      const kept = await follow(proxy.url(db));
      await reset;
      expect(kept.code, kept.stderr).toBe(0);
      const id = /Created a follow-up of \S+ in the shared store \S+: (\S+)/.exec(kept.stdout)?.[1] ?? '';
      expect(kept.stderr).toContain(`dropped as batch ${id} was committed (read ECONNRESET); the store says it was created.`);
      expect(await followers()).toEqual([{ id, ready: 1, jobs: '4' }]);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
