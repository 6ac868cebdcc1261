// batchdesk optout add | remove | import | list, and the list at work in batch create.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk optout', () => {
  const dir = tempDir('batchdesk-cli-optout-');
  const args = ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('adds, lists, imports and removes; batch create leaves listed recipients out', async () => {
    const add = await runCli(['optout', 'add', '+44 20 7946 0031', 'Jo@Example.com', ...args]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('Added +442079460031: no message will be sent to it.');
    expect((await runCli(['optout', 'add', '+442079460031', ...args])).stdout).toContain('+442079460031 is on the list already.');
    const bad = await runCli(['optout', 'add', '07946 0031', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not in international format');

    const file = join(dir.path, 'unsubscribed.csv');
    writeFileSync(file, 'email,name\nsam@example.com,Sam\nnot-an-address,Al\n');
    const imported = await runCli(['optout', 'import', file, ...args]);
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('Added 1 recipient(s)');
    expect(imported.stderr).toContain('unsubscribed.csv row 3: e-mail address "not-an-address" is not valid');

    const list = await runCli(['optout', 'list', '--json', ...args]);
    const listed = JSON.parse(list.stdout) as { opt_outs: { recipient: string; source: string }[] };
    expect(listed.opt_outs.map((o) => o.recipient).sort()).toEqual(['+442079460031', 'jo@example.com', 'sam@example.com']);

    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460031,Hi\n+442079460032,Hi\n');
    const created = await runCli(['batch', 'create', 'channel', csv, ...args]);
    expect(created.code, created.stderr).toBe(0);
    expect(`${created.stdout}${created.stderr}`).toMatch(/\+442079460031 is on the opt-out list .*skipped/);
    expect(created.stdout).toMatch(/1 item/);

    expect((await runCli(['optout', 'remove', '+442079460031', ...args])).stdout).toContain('Removed +442079460031: it can be sent to again.');
    expect((await runCli(['optout', 'list', ...args])).stdout).not.toContain('+442079460031');
  });
});
