// The command line as a user meets it: exit codes, messages, JSON status, exports, keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { BatchSummary } from '../../src/shared/domain';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { z } from 'zod';

const SAMPLES = join(process.cwd(), 'resources', 'samples');
const StatusJson = z.object({ batches: z.array(BatchSummary) });

describe('batchdesk CLI', () => {
  let sb: SandboxHandle;
  let admin: SandboxAdmin;
  const dir = tempDir('batchdesk-cli-');
  let n = 0;
  const fresh = () => ['--data-dir', join(dir.path, `data-${++n}`)];

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
    admin = new SandboxAdmin(sb.url, sb.adminToken);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it('exits 2 on usage errors, with a message saying what to do', async () => {
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    const tier = await runCli(['batch', 'create', 'ocr', SAMPLES, '--tier', 'gold', ...fresh()]);
    expect(tier.code).toBe(2);
    expect(tier.stderr).toContain('--tier must be basic, standard or superior');
    const noPaths = await runCli(['batch', 'create', 'transcribe', ...fresh()]);
    expect(noPaths.code).toBe(2);
    const flag = await runCli(['status', '--bogus', ...fresh()]);
    expect(flag.code).toBe(2);
    // A data-folder-only command given a team's store says so, not just "unknown option".
    for (const args of [
      ['compare', 'b1', '--store', 'postgresql://db/x'],
      ['keys', 'list', '--store', 'postgresql://db/x'],
    ]) {
      const local = await runCli([...args, ...fresh()]);
      expect(local.code, args.join(' ')).toBe(2);
      expect(local.stderr).toContain("works on this computer's data folder only and does not take --store");
    }
    // `watch list --store` names the team's default rule; adding a folder is this computer's own.
    const watchAdd = await runCli(['watch', 'add', 'inbox', '--capability', 'ocr', '--store=postgresql://db/x', ...fresh()]);
    expect(watchAdd.code).toBe(2);
    expect(watchAdd.stderr).toContain("works on this computer's folders and takes no --store");
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('batchdesk batch create');
  });

  it('a batch id prefix that starts several ids names them, one that starts none says so; a cancelled batch is not resumed', async () => {
    const d = fresh();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages.csv'), '--allow-resend', ...d]);
      ids.push(/Created batch (\S+)/.exec(r.stdout)?.[1] ?? '');
    }
    const [a = '', b = ''] = ids;
    let common = 0;
    while (a[common] === b[common]) common++;
    const several = await runCli(['pause', a.slice(0, common), ...d]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(`"${a.slice(0, common)}" is the start of several batches' ids (${a}, ${b}): type more of the id.`);
    expect((await runCli(['pause', a.slice(0, common + 1), ...d])).code).toBe(0);
    const none = await runCli(['pause', 'zz', ...d]);
    expect(none.stderr).toContain('No batch "zz". `batchdesk status');
    // Resuming a cancelled batch is refused, not reported as done.
    expect((await runCli(['cancel', a, ...d])).code).toBe(0);
    const resumed = await runCli(['resume', a, '--budget', '5', '--yes', ...d]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`${a} was cancelled, so it cannot be resumed (nothing was changed).`);
    expect((await runCli(['status', a, '--json', ...d])).stdout).toContain('"budget": null');
  });

  it('reports every bad row and still creates the batch from the good ones', async () => {
    const r = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages-with-problems.csv'), ...fresh()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Created batch \S+/);
    expect(r.stdout).toContain('3 items');
    expect(r.stderr).toMatch(/row \d+/);
    expect(r.stderr).toContain('+');
    expect(r.stderr.split('\n').filter((l) => l.includes('!')).length).toBeGreaterThanOrEqual(4);
  });

  it('creating the same file again says how many items earlier batches have, and that others could not be used', async () => {
    const data = fresh();
    const file = join(SAMPLES, 'messages-with-problems.csv');
    expect((await runCli(['batch', 'create', 'channel', file, ...data])).code).toBe(0);
    const again = await runCli(['batch', 'create', 'channel', file, ...data]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n').at(-1)).toBe(
      'Nothing new: the 3 usable items are already in earlier batches; the others could not be used (named above), so no batch was created. Add --allow-resend to include them anyway.',
    );
    // Every line names the file and row once, in row order.
    const rows = again.stderr
      .split('\n')
      .filter((l) => l.startsWith('  ! '))
      .map((l) => /^ {2}! messages-with-problems\.csv row (\d+)[: ]/.exec(l)?.[1]);
    expect(rows).toEqual(['2', '3', '4', '5', '6', '7', '8']);
    const json = await runCli(['batch', 'create', 'channel', file, '--json', ...data]);
    expect(json.stderr).toContain('(listed in the JSON output)');
  });

  it('reports a missing path and an unsupported file, and exits 1 when nothing is valid', async () => {
    const r = await runCli(['batch', 'create', 'transcribe', join(dir.path, 'nope'), join(SAMPLES, 'messages.csv'), ...fresh()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(dir.path, 'nope'));
    expect(r.stderr).toContain('messages.csv');
    expect(r.stderr).toContain('no batch was created');
  });

  it('runs a batch, prints documented JSON status, exports CSV, and exits 0', async () => {
    const d = fresh();
    const env = { BATCHDESK_API_KEY: sb.apiKey };
    const created = await runCli(['batch', 'create', 'ocr', join(SAMPLES, 'invoices'), '--tier', 'basic', '--budget', '5', ...d]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Estimated cost: €0.0250');
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id.slice(0, 10), '--api-url', sb.url, ...d], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Sending to API ${sb.url}`);
    const status = await runCli(['status', id, '--json', ...d]);
    const parsed = StatusJson.parse(JSON.parse(status.stdout));
    expect(parsed.batches[0]).toMatchObject({
      id,
      capability: 'ocr',
      status: 'done',
      counts: { succeeded: 4, failed: 0, queued: 0, running: 0, retry_wait: 0, cancelled: 0 },
      cost: { estimated: 250, spent: 250, budget: 50_000, currency: 'EUR', scale: 10_000 },
    });
    const out = join(dir.path, 'ocr.csv');
    const exp = await runCli(['export', id, '--format', 'csv', '--out', out, ...d]);
    expect(exp.code).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(rows).toHaveLength(5);
    expect(rows[0]).toContain('invoice_number');
    expect(rows.slice(1).join('\n')).toContain('INV-2026-0012');
    const bad = await runCli(['export', id, '--format', 'csv', '--out', join(dir.path, 'missing', 'x.csv'), ...d]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Choose a path in an existing folder');
    // A file the user named is never overwritten (as report --out).
    const again = await runCli(['export', id, '--format', 'json', '--out', out, ...d]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${out} already exists; give another --out name (nothing was overwritten).`);
    expect(readFileSync(out, 'utf8').trim().split('\r\n')).toEqual(rows);
  });

  it('exits 1 when some items failed, naming the file', async () => {
    const d = fresh();
    const folder = join(dir.path, 'rec');
    mkdirSync(folder);
    copyFileSync(join(SAMPLES, 'recordings', 'call-001-double-charge.wav'), join(folder, 'a.wav'));
    copyFileSync(join(SAMPLES, 'recordings', 'call-002-late-parcel.wav'), join(folder, 'b.wav'));
    const created = await runCli(['batch', 'create', 'transcribe', folder, ...d]);
    expect(created.code).toBe(0);
    rmSync(join(folder, 'b.wav'));
    const run = await runCli(['run', '--api-url', sb.url, ...d], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 succeeded, 1 failed');
  });

  it('exits 3 when the key is revoked, and continues after the key is replaced', async () => {
    const d = fresh();
    const key = await admin.createKey({ client: 'cli-test', kind: 'channel' });
    const created = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages.csv'), ...d]);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    await admin.revokeKey(key.id);
    const paused = await runCli(['run', '--api-url', sb.url, ...d], { BATCHDESK_CHANNEL_KEY: key.key });
    expect(paused.code).toBe(3);
    expect(paused.stdout).toContain('paused (auth)');
    expect(paused.stdout).toContain('the key comes from BATCHDESK_CHANNEL_KEY: set it to a valid key');
    const replacement = await admin.createKey({ client: 'cli-test', kind: 'channel' });
    expect((await runCli(['resume', id, '--yes', ...d])).code).toBe(0);
    const done = await runCli(['run', '--api-url', sb.url, ...d], { BATCHDESK_CHANNEL_KEY: replacement.key });
    expect(done.code, done.stderr).toBe(0);
    const ledger = await admin.ledger({ client: 'cli-test' });
    expect(ledger).toHaveLength(6);
  });

  it('resume --budget takes an amount in EUR or "none", and refuses anything else before changing the batch', async () => {
    const d = fresh();
    // A budget of 0 could send nothing: refused when the batch is made, as one at or below what is spent is when resuming.
    const zero = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages.csv'), '--budget', '0', ...d]);
    expect(zero.code).toBe(2);
    // The contract's sentence, as the New batch screen shows it under the field.
    expect(zero.stderr).toContain(
      '--budget: a budget is an amount in EUR above 0, e.g. 25 or 12.50, at most four decimals; without one there is no limit (got "0").',
    );
    const created = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages.csv'), '--budget', '5', ...d]);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect((await runCli(['pause', id, ...d])).code).toBe(0);
    const budgetOf = async (): Promise<{ status: string; budget: number | null }> => {
      const b = StatusJson.parse(JSON.parse((await runCli(['status', id, '--json', ...d])).stdout)).batches[0];
      return { status: b?.status ?? '', budget: b?.cost.budget ?? null };
    };
    const bad = await runCli(['resume', id, '--budget', 'lots', ...d]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget must be an amount in EUR such as 12.50 (at most 4 decimal places), or "none" (got "lots")');
    expect(await budgetOf()).toEqual({ status: 'paused', budget: 50_000 });
    const none = await runCli(['resume', id, '--budget', 'none', '--yes', ...d]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(`Resumed ${id}`);
    expect((await budgetOf()).budget).toBeNull();
    const again = await runCli(['resume', id, '--budget', '7.5', '--yes', ...d]);
    expect(again.stdout).toContain(`${id} was not paused (budget updated)`);
    expect((await budgetOf()).budget).toBe(75_000);
  });

  it('runs on the embedded sandbox when no API is configured, and says so', async () => {
    const d = fresh();
    await runCli(['batch', 'create', 'transcribe', join(SAMPLES, 'recordings'), ...d]);
    const run = await runCli(['run', ...d]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('embedded sandbox');
    expect(run.stdout).toContain('3 succeeded');
  });

  it('stores keys in the OS keychain, reads them from stdin, and never prints them', async () => {
    const d = fresh();
    const secret = 'sk_cli_test_0123456789abcd';
    const add = await runCli(['keys', 'add', '--kind', 'api', '--label', 'acme', '--client', 'ACME', '--api-url', sb.url, ...d], {}, `${secret}\n`);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('…abcd');
    const list = await runCli(['keys', 'list', ...d]);
    expect(list.stdout).toContain('acme');
    expect(list.stdout).not.toContain(secret);
    const rm = await runCli(['keys', 'remove', 'acme', ...d]);
    expect(rm.code).toBe(0);
    expect((await runCli(['keys', 'list', ...d])).stdout).toContain('No keys stored');
    // A key in the environment is sent before any stored one: the list says so, without the key.
    const env = await runCli(['keys', 'list', ...d], { BATCHDESK_API_KEY: 'sk_env_test_000000wxyz' });
    expect(env.stdout).toContain('No keys stored.\nBATCHDESK_API_KEY is set (…wxyz): batches that need the api key send with it, before any stored api key.');
    expect(env.stdout).not.toContain('sk_env_test');
  });
});
