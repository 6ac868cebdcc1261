// A command Batchdesk suggests, copied from its output into a shell as printed, works on the same
// data folder the user named with --data-dir; data (names, --json, help) is printed as it is.
// And an import's problems have one shape in --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { assertBuilt, CLI, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { startSandbox } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';

/** Runs `command` as bash would, `batchdesk` being the built command line. */
async function inShell(command: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Not spawnSync: a sandbox in this process must go on answering meanwhile.
  const child = spawn('bash', ['-c', `batchdesk() { "${process.execPath}" "${CLI}" "$@"; }\n${command}`], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('suggested commands on the command line', () => {
  const dir = tempDir('batchdesk-suggested-');
  // A folder name a shell would split and expand: quoted in every suggestion.
  const data = () => join(dir.path, "Bob's batch data $HOME");
  let csv = '';

  beforeAll(() => {
    assertBuilt();
    csv = join(dir.path, 'msgs.csv');
    writeFileSync(csv, 'to,text,opt_out\n+442079460000,Hi,\n+442079460001,Hi,yes\n');
  });
  afterAll(() => dir.cleanup());

  it('a suggested command copied as printed works on the same data folder', async () => {
    const created = await runCli(['batch', 'create', 'channel', csv, '--name', 'see `batchdesk run x`', '--data-dir', data()]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const start = /Nothing is sent until you start it: `(batchdesk run [^`]+)`/.exec(created.stdout)?.[1] ?? '';
    expect(start).toBe(`batchdesk run ${id} --data-dir '${data().replace(/'/g, "'\\''")}'`);

    const ran = await inShell(start);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`${id}  see \`batchdesk run x\``);
    expect(ran.stdout).toContain('1 succeeded');

    // A message of the engine: the opted-out recipient's undo names the folder too.
    const later = join(dir.path, 'later.csv');
    writeFileSync(later, 'to,text\n+442079460001,Hello again\n');
    const again = await runCli(['batch', 'create', 'channel', later, '--data-dir', data()]);
    expect(again.stderr).toContain("If they asked to hear from you again: `batchdesk optout remove +442079460001 --data-dir '");

    // Data is printed as it is: the batch's name in status, and --json.
    const status = await runCli(['status', id, '--data-dir', data()]);
    expect(status.stdout).toContain(`${id}  see \`batchdesk run x\`\n`);
    const json = await runCli(['batch', 'create', 'channel', csv, '--json', '--allow-resend', '--data-dir', data()]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toContain('--data-dir');
  });

  it("--json names a file's problems the same way whoever found them (a path given relative)", async () => {
    const mixed = join(dir.path, 'mixed.csv');
    writeFileSync(mixed, 'to,text,opt_out\nnot a number,Hi,\n+442079460005,Hi,yes\n');
    const r = await runCli(['batch', 'create', 'channel', relative(process.cwd(), mixed), '--json', '--data-dir', join(dir.path, 'mixed')]);
    const problems = (JSON.parse(r.stdout) as { problems: { source: string; row: number; message: string }[] }).problems;
    // The reader's (a bad number) and the planner's (an opt-out) alike: the file resolved, "Row N: ...".
    expect(problems.map((p) => [p.source, p.row, p.message.slice(0, 7)])).toEqual([
      [mixed, 2, 'Row 2: '],
      [mixed, 3, 'Row 3: '],
    ]);
  });

  it('a batch keeps to its API: pasted without --api-url it pauses, and the command its reason suggests goes on there', async () => {
    const sb = await startSandbox({ port: 0 });
    const api = new URL(sb.url).toString();
    const env = { BATCHDESK_CHANNEL_KEY: sb.channelKey };
    try {
      const dd = join(dir.path, 'kept api');
      const list = join(dir.path, 'twelve.csv');
      writeFileSync(list, `to,text\n${Array.from({ length: 12 }, (_, i) => `+4420794601${String(i).padStart(2, '0')},Hi ${i}`).join('\n')}\n`);
      const created = await runCli(['batch', 'create', 'channel', list, '--sample', '3', '--data-dir', dd], env);
      const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
      expect((await runCli(['run', id, '--api-url', sb.url, '--data-dir', dd], env)).code).toBe(3);
      const resumed = await runCli(['resume', id, '--yes', '--data-dir', dd], env);
      expect(resumed.stdout).toContain(`Run \`batchdesk run ${id} --api-url ${api} --data-dir '${dd}'\` to continue sending.`);

      // The trial's mistake: `run` without --api-url would send the rest to the embedded sandbox.
      const pasted = await runCli(['run', id, '--data-dir', dd], env);
      expect(pasted.code).toBe(3);
      expect(pasted.stdout).toContain(
        `paused (api): Its first items were sent to the API at ${api}, and this run sends to the embedded sandbox, so nothing more was sent`,
      );
      expect(pasted.stdout).toContain('3 succeeded');
      expect(pasted.stdout).toContain(`sent to the API at ${api}`);
      expect(await new SandboxAdmin(sb.url, sb.adminToken).ledger()).toHaveLength(3);

      // Its reason's command, copied as printed, goes on at that API (the data folder carried too).
      const suggested = /`(batchdesk run \S+ --api-url [^`]+)` goes on there by itself/.exec(pasted.stdout)?.[1] ?? '';
      expect(suggested).toBe(`batchdesk run ${id} --api-url ${api} --data-dir '${dd}'`);
      const ran = await inShell(suggested, env);
      expect(ran.code, ran.stderr).toBe(0);
      // It resumes the batch before its first progress line: no "paused 1" in it.
      expect(ran.stderr.split('\n').find((l) => l.includes('/12 ('))).not.toContain('paused');
      expect(ran.stdout).toContain('12 succeeded');
      const ledger = await new SandboxAdmin(sb.url, sb.adminToken).ledger();
      expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(12);
      expect(ledger).toHaveLength(12);
    } finally {
      await sb.close();
    }
  });

  it('help is the same in any data folder', async () => {
    const plain = await runCli(['batch', 'create', '--help']);
    const given = await runCli(['batch', 'create', '--help', '--data-dir', data()]);
    expect(given.stdout).toBe(plain.stdout);
  });

  it('a command line without --data-dir prints its suggestions as they are', async () => {
    const created = await runCli(['batch', 'create', 'channel', csv], { BATCHDESK_DATA_DIR: join(dir.path, 'from-env') });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Nothing is sent until you start it: `batchdesk run \S+`/);
  });
});
