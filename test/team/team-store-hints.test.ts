// On a team's store the commands a message suggests are typed as the user can run them: with the
// --store they gave (never its password), or with no flag when BATCHDESK_STORE names the store.
// The rows a team batch's import left out go to the store with it: `batch skipped` gives them
// back from any computer.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { runCli } from '../helpers/cli';
import { keyEnv, useTeamRig } from '../helpers/team-run';

describe('team: suggested commands and rows left out', () => {
  const rig = useTeamRig('batchdesk-team-hints-', { seed: 5 });

  it('types the store as given, without its password, or leaves it to BATCHDESK_STORE; keeps the rejected rows', async () => {
    const { cluster, sb, dir } = rig();
    const storeUrl = await cluster.freshDatabase('hints');
    // The test cluster trusts every login: the password is given and never needed.
    const withPassword = storeUrl.replace('postgresql://postgres@', 'postgresql://postgres:hunter2@');
    const csv = join(dir.path, 'notice.csv');
    writeFileSync(csv, 'to,text,order\n+442000000001,Hello,A-1\nnot a number,Hello,A-2\n+442000000003,Hello,A-3\n');
    const planner = ['--data-dir', join(dir.path, 'planner'), '--api-url', sb.url];
    const created = await runCli(['batch', 'create', 'channel', csv, '--store', withPassword, ...planner], keyEnv(sb));
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const said = `${created.stdout}${created.stderr}`;
    expect(said).toContain(`\`batchdesk run ${id} --store ${storeUrl} ${planner.join(' ')}\``);
    expect(said).not.toMatch(/hunter2|--store URL/);

    // Another computer, the store from the environment: no flag in what it is told to type.
    const other = ['--data-dir', join(dir.path, 'other')];
    const env = { BATCHDESK_STORE: withPassword };
    const paused = await runCli(['pause', id, ...other], env);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(new RegExp(`\`batchdesk (resume|run) ${id} --data-dir \\S+\``));
    expect(`${paused.stdout}${paused.stderr}`).not.toMatch(/--store|hunter2/);
    const status = await runCli(['status', id, '--store', withPassword, ...other]);
    expect(status.stdout).not.toMatch(/hunter2|--store URL/);

    const skipped = await runCli(['batch', 'skipped', id, ...other], env);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toMatch(/^to,text,order,problem\nnot a number,Hello,A-2,"?phone number ""not a number"" is not in international format/);
  }, 120_000);
});
