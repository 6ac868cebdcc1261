// Every command answers --help and -h with its own usage, options and an example (exit 0), and
// the global help lists the commands. Runs the built bundle, as a user would.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';

const COMMANDS: readonly (readonly string[])[] = [
  ['demo'],
  ['batch', 'create'],
  ['run'],
  ['status'],
  ['export'],
  ['pause'],
  ['resume'],
  ['cancel'],
  ['retry'],
  ['keys', 'add'],
  ['keys', 'list'],
  ['keys', 'remove'],
  ['rates'],
  ['config'],
  ['sandbox'],
];

describe('batchdesk --help', () => {
  beforeAll(() => assertBuilt());

  it.each(COMMANDS.map((c) => [c.join(' ')]))('%s --help prints its own usage, options and an example', async (name) => {
    const words = name.split(' ');
    for (const flag of ['--help', '-h']) {
      const r = await runCli([...words, flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage:\\n  batchdesk ${name}\\b`, 'm'));
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toMatch(new RegExp(`^  batchdesk ${name}\\b`, 'm'));
      // Every command but the sandbox (which has no data folder and no API) takes the global options.
      if (name === 'sandbox') expect(r.stdout).not.toContain('--data-dir');
      else expect(r.stdout).toContain('--data-dir DIR');
      // Its own help, not the list of every command.
      expect(r.stdout).not.toContain('Commands:');
    }
  });

  it('batch create --help lists its options, one line each', async () => {
    const r = await runCli(['batch', 'create', '--help']);
    for (const flag of ['--tier', '--channel', '--voice', '--name', '--budget', '--json'])
      expect(r.stdout).toMatch(new RegExp(`^  ${flag}\\b.*\\S\\s{2,}\\S`, 'm'));
    // The command's own options first; --store (team mode) last, just before the global ones.
    const flags = [...r.stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(flags[0]).toBe('--tier');
    expect(flags.slice(flags.indexOf('--json'), flags.indexOf('--json') + 3)).toEqual(['--json', '--store', '--data-dir']);
  });

  it('help works before any other argument is checked, and never touches a data folder', async () => {
    const r = await runCli(['export', '--format', 'nope', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--format csv|json|txt');
  });

  it('`batchdesk --help` and `batchdesk help` list every command; `help <command>` is its help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Commands:');
    for (const c of COMMANDS) expect(r.stdout).toContain(`batchdesk ${c.join(' ')}`);
    expect(r.stdout).toContain('batchdesk <command> --help');
    const run = await runCli(['help', 'run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage:\n {2}batchdesk run\b/m);
  });

  it('a command group without its subcommand lists the subcommands', async () => {
    const help = await runCli(['keys', '--help']);
    expect(help.code).toBe(0);
    for (const sub of ['add', 'list', 'set', 'remove']) expect(help.stdout).toContain(`batchdesk keys ${sub}`);
    const missing = await runCli(['keys']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('add, list, set or remove');
  });

  it("a usage error points at the command's own help", async () => {
    const r = await runCli(['run', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('batchdesk run --help');
  });
});
