// The team's opt-out list (`optout ... --store URL`): a customer who opts out on one desk is never
// messaged by any worker, although the batch was planned (and the worker runs) on machines whose
// own lists do not have them. Removing them from the team's list lets the next batch reach them.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { createSharedBatch, jobStates, keyEnv, query, startWorker, writeChannelCsv, useTeamRig } from '../helpers/team-run';

const ROWS = 20;
/** Rows 3 and 7 of writeChannelCsv, as sent to. */
const OUT = ['+442000000003', '+442000000007'];

describe("team: the team's opt-out list", () => {
  const rig = useTeamRig('batchdesk-team-optout-', { seed: 17 });

  it('is checked by every worker before each message, besides its own list', async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('optouts');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    const id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'opt-out test' });

    // Recorded on a third desk, after the batch was planned: only the shared store has it.
    const desk = join(dir.path, 'desk');
    const added = await runCli(['optout', 'add', '+44 20 0000 0003', ...['--store', storeUrl, '--data-dir', desk]]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added +442000000003: no message will be sent to it by any worker of the team.');
    const file = join(dir.path, 'unsubscribed.txt');
    writeFileSync(file, `${OUT[1]}\n${OUT[0]}\n`);
    const imported = await runCli(['optout', 'import', file, '--store', storeUrl, '--data-dir', desk]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Added 1 recipient(s)');
    expect(imported.stdout).toContain("to the team's opt-out list in the shared store postgresql://");
    const listed = await runCli(['optout', 'list', '--json', '--store', storeUrl, '--data-dir', desk]);
    expect((JSON.parse(listed.stdout) as { opt_outs: { recipient: string; source: string }[] }).opt_outs.map((o) => o.recipient)).toEqual(OUT);
    // The desk's own list is untouched: its data folder was never even made.
    const own = await runCli(['optout', 'list', '--data-dir', desk]);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(`There is no Batchdesk data in ${desk}`);

    const workers = [0, 1].map((n) => startWorker({ storeUrl, dataDir: join(dir.path, `worker-${n}`), sb }));
    live.push(...workers);
    for (const w of workers) {
      const r = await w.done;
      expect(r.code, r.stderr).toBe(0);
    }
    const sent = (await admin.ledger()).map((d) => d.to);
    expect(sent).toHaveLength(ROWS - OUT.length);
    for (const to of OUT) expect(sent).not.toContain(to);
    expect(await jobStates(storeUrl, id)).toEqual([
      { state: 'cancelled', n: OUT.length },
      { state: 'succeeded', n: ROWS - OUT.length },
    ]);
    const reasons = await query<{ error_message: string }>(storeUrl, `SELECT error_message FROM jobs WHERE batch_id = $1 AND state = 'cancelled'`, [id]);
    for (const r of reasons) expect(r.error_message).toContain('is on the opt-out list');

    // Taken off the team's list: a new batch reaches them.
    const removed = await runCli(['optout', 'remove', OUT[0] ?? '', '--store', storeUrl, '--data-dir', desk]);
    expect(removed.stdout).toContain(`Removed ${OUT[0]} from the team's opt-out list`);
    // Everything else was already sent by the team: only the two never sent are new, and the one
    // still on the team's list is left out when the batch moves to the store, with the reason.
    const created = await runCli(
      ['batch', 'create', 'channel', csv, '--name', 'after removal', '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`customers.csv row 9: ${OUT[1]} is on the team's opt-out list (since `);
    expect(created.stderr).toContain(`\`batchdesk optout remove RECIPIENT --store ${storeUrl} --data-dir ${join(dir.path, 'planner')} --api-url ${sb.url}\``);
    const again = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const w = startWorker({ storeUrl, dataDir: join(dir.path, 'worker-0'), sb });
    live.push(w);
    expect((await w.done).code).toBe(0);
    expect((await admin.ledger()).filter((d) => d.to === OUT[0])).toHaveLength(1);
    expect((await admin.ledger()).filter((d) => d.to === OUT[1])).toHaveLength(0);
    expect(await jobStates(storeUrl, again)).toEqual([{ state: 'succeeded', n: 1 }]);
  }, 90_000);
});
