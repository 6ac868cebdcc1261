// Every command that commits to sending (resume, resume --budget, retry, schedule --at/--now,
// batch create --at) shows what is left to send and asks at a terminal; "n" changes nothing and
// the API sees no request; in a pipe it refuses without --yes, naming the flag; --yes goes on.
// `run` says what it is about to send without asking. Against a real sandbox server.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { BatchSummary } from '../../src/shared/domain';
import { formatEur } from '../../src/shared/money';
import { assertBuilt, runCli, runCliTty } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { RECORDINGS } from '../integration/harness';

const StatusJson = z.object({ batches: z.array(BatchSummary) });

describe('commands that commit to sending ask first', () => {
  let sb: SandboxHandle;
  let admin: SandboxAdmin;
  const dir = tempDir('batchdesk-spend-asks-');
  let n = 0;
  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
    admin = new SandboxAdmin(sb.url, sb.adminToken);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  /** A fresh data folder sending to the sandbox server. */
  function desk() {
    const data = join(dir.path, `data-${++n}`);
    const d = ['--data-dir', data, '--api-url', sb.url];
    const env = { BATCHDESK_API_KEY: sb.apiKey };
    return {
      data,
      cli: (args: string[]) => runCli([...args, ...d], env),
      tty: (args: string[], typed: string) => runCliTty([...args, ...d], env, typed),
      status: async (id: string) => {
        const s = StatusJson.parse(JSON.parse((await runCli(['status', id, '--json', ...d])).stdout)).batches[0];
        if (!s) throw new Error(`no batch ${id}`);
        return s;
      },
    };
  }
  const requests = async (): Promise<number> => (await admin.usage()).rows.reduce((sum, r) => sum + r.requests, 0);

  /** Ten text items of the same length, so each has the same estimate. */
  function tenItems(): string {
    const file = join(dir.path, `tickets-${++n}.txt`);
    writeFileSync(file, `${Array.from({ length: 10 }, (_, i) => `Ticket ${String(i).padStart(2, '0')}: the parcel arrived two days late.`).join('\n')}\n`);
    return file;
  }
  const createdId = (stdout: string): string => (JSON.parse(stdout) as { batch: { id: string } }).batch.id;

  it('resume: 7 of 10 left after a sample of 3, asked; "n" and a pipe change nothing, "y" and --yes resume', async () => {
    const d = desk();
    const created = await d.cli(['batch', 'create', 'text', tenItems(), '--task', 'summary', '--sample', '3', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = createdId(created.stdout);
    const before = await requests();
    const run = await d.cli(['run', id]);
    // `run` answers the estimate create printed: it says what it sends, and does not ask.
    expect(run.stderr).toMatch(
      new RegExp(
        `^Left to send of batch ${id} ".*": 10 of 10 item\\(s\\), ~\\d+ characters, estimated €\\d\\.\\d{4} \\(€0\\.0000 spent so far\\); no budget\\.$`,
        'm',
      ),
    );
    expect(run.code, run.stderr).toBe(3);
    expect(await requests()).toBe(before + 3);
    const paused = await d.status(id);
    expect(paused.status).toBe('paused');
    // Each item's estimate is a tenth of the batch's: seven of them are left.
    const left = formatEur((paused.cost.estimated / 10) * 7, 4);
    const line = new RegExp(
      `^Left to send of batch ${id} ".*": 7 of 10 item\\(s\\), ~\\d+ characters, estimated ${left.replace('.', '\\.')} \\(${formatEur(paused.cost.spent, 4).replace('.', '\\.')} spent so far\\); no budget\\.$`,
      'm',
    );

    const piped = await d.cli(['resume', id]);
    expect(piped.code).toBe(2);
    expect(piped.stdout).toMatch(line);
    expect(piped.stderr).toContain(`Add --yes to send it: \`batchdesk resume ${id} --yes`);
    const pipedBudget = await d.cli(['resume', id, '--budget', '1']);
    expect(pipedBudget.code).toBe(2);
    expect(pipedBudget.stdout).toContain('budget €1.0000 once resumed.');
    expect(pipedBudget.stderr).toContain(`\`batchdesk resume ${id} --budget 1.00 --yes`);

    const no = await d.tty(['resume', id], 'n\n');
    expect(no.code).toBe(0);
    expect(no.output).toMatch(line);
    expect(no.output).toContain('Resume it? [y/N]');
    expect(no.output).toContain(`Nothing was changed: ${id} stays paused.`);
    expect((await d.status(id)).status).toBe('paused');
    // Still paused: a run sends nothing.
    expect((await d.cli(['run', id])).code).toBe(3);
    expect(await requests()).toBe(before + 3);

    const yes = await d.tty(['resume', id, '--budget', '1'], 'y\n');
    expect(yes.code, yes.output).toBe(0);
    expect(yes.output).toContain('Resume it? [y/N]');
    expect(yes.output).toContain(`Resumed ${id}.`);
    expect((await d.status(id)).cost.budget).toBe(10_000);
    const rest = await d.cli(['run', id]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(await requests()).toBe(before + 10);
  }, 180_000);

  it('resume --yes goes on without asking where no one can answer', async () => {
    const d = desk();
    const id = createdId((await d.cli(['batch', 'create', 'text', tenItems(), '--task', 'summary', '--sample', '3', '--json'])).stdout);
    expect((await d.cli(['run', id])).code).toBe(3);
    const r = await d.cli(['resume', id, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Left to send of batch ${id} ".*": 7 of 10 item\\(s\\)`, 'm'));
    expect(r.stdout).toContain(`Resumed ${id}.`);
    expect(r.stderr).not.toContain('[y/N]');
  }, 120_000);

  it('retry: an item that never reached the API is paid for when sent again, so it asks', async () => {
    const d = desk();
    const calls = join(dir.path, `calls-${++n}`);
    mkdirSync(calls);
    const files = ['call-001-double-charge.wav', 'call-002-late-parcel.wav', 'call-003-cancel-plan.wav'];
    for (const f of files) copyFileSync(join(RECORDINGS, f), join(calls, f));
    const id = createdId((await d.cli(['batch', 'create', 'transcribe', calls, '--json'])).stdout);
    // Gone when it is sent: failed here, no request made.
    rmSync(join(calls, files[2] ?? ''));
    const before = await requests();
    expect((await d.cli(['run', id])).code).toBe(1);
    expect(await requests()).toBe(before + 2);
    copyFileSync(join(RECORDINGS, files[2] ?? ''), join(calls, files[2] ?? ''));
    const line = new RegExp(
      `^Left to send of batch ${id} ".*": 1 of 3 item\\(s\\) \\(1 failed, sent again\\), ~\\d+ audio seconds?, estimated €0\\.0\\d{3} `,
      'm',
    );

    const piped = await d.cli(['retry', id]);
    expect(piped.code).toBe(2);
    expect(piped.stdout).toMatch(line);
    expect(piped.stderr).toContain(`Add --yes to send it: \`batchdesk retry ${id} --yes`);
    const no = await d.tty(['retry', id], 'n\n');
    expect(no.code).toBe(0);
    expect(no.output).toContain('Queue the failed items again? [y/N]');
    expect(no.output).toContain(`Nothing was changed: the 1 failed item(s) of ${id} stay failed.`);
    expect((await d.status(id)).counts.failed).toBe(1);
    expect((await d.cli(['run', id])).code).toBe(1);
    expect(await requests()).toBe(before + 2);

    const yes = await d.tty(['retry', id], 'y\n');
    expect(yes.code, yes.output).toBe(0);
    expect(yes.output).toContain('1 failed item(s) queued again');
    expect((await d.cli(['run', id])).code).toBe(0);
    expect(await requests()).toBe(before + 3);
    // Nothing failed: nothing to ask about.
    const none = await d.cli(['retry', id]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(`No failed items in ${id}.`);
  }, 180_000);

  it('schedule --now and --at ask; "n" leaves the batch waiting and unsent; --yes schedules', async () => {
    const d = desk();
    const id = createdId((await d.cli(['batch', 'create', 'text', tenItems(), '--task', 'summary', '--json'])).stdout);
    const before = await requests();
    const piped = await d.cli(['schedule', id, '--now']);
    expect(piped.code).toBe(2);
    expect(piped.stdout).toMatch(new RegExp(`^Left to send of batch ${id} ".*": 10 of 10 item\\(s\\)`, 'm'));
    expect(piped.stdout).toContain('Scheduled, it is sent now by a Batchdesk that is running, with no one asked again.');
    expect(piped.stderr).toContain(`Add --yes to send it: \`batchdesk schedule ${id} --now --yes`);
    const no = await d.tty(['schedule', id, '--now'], 'n\n');
    expect(no.code).toBe(0);
    expect(no.output).toContain('Start it now? [y/N]');
    expect(no.output).toContain(`Nothing was changed: ${id} waits for its start.`);
    expect((await d.status(id)).started).toBe(false);
    const noAt = await d.tty(['schedule', id, '--at', '2031-02-02T10:00Z'], 'n\n');
    expect(noAt.output).toContain('Schedule it? [y/N]');
    expect((await d.status(id)).scheduled_for).toBeNull();
    expect(await requests()).toBe(before);

    const at = await d.tty(['schedule', id, '--at', '2031-02-02T10:00Z'], 'y\n');
    expect(at.code, at.output).toBe(0);
    expect((await d.status(id)).scheduled_for).toBe('2031-02-02T10:00:00.000Z');
    const now = await d.cli(['schedule', id, '--now', '--yes']);
    expect(now.code, now.stderr).toBe(0);
    expect((await d.status(id)).started).toBe(true);
    // --clear commits to nothing: not asked.
    const other = createdId((await d.cli(['batch', 'create', 'text', tenItems(), '--task', 'summary', '--allow-resend', '--json'])).stdout);
    expect((await d.cli(['schedule', other, '--clear'])).code).toBe(0);
  }, 180_000);

  it('batch create --at: nothing is created in a pipe without --yes; at a terminal "n" leaves it unscheduled', async () => {
    const d = desk();
    const file = tenItems();
    const piped = await d.cli(['batch', 'create', 'text', file, '--task', 'summary', '--at', '2031-02-02T10:00Z']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('Nothing was created: --at sends the batch at that time with no one asked again');
    expect(piped.stderr).toContain('Add --yes');
    // Refused before the data folder was even made.
    expect(existsSync(join(d.data, 'batchdesk.sqlite'))).toBe(false);

    const no = await d.tty(['batch', 'create', 'text', file, '--task', 'summary', '--at', '2031-02-02T10:00Z'], 'n\n');
    expect(no.code, no.output).toBe(0);
    expect(no.output).toMatch(/^Left to send of batch \S+ ".*": 10 of 10 item\(s\), ~\d+ characters, estimated €\d\.\d{4} /m);
    expect(no.output).toContain('Schedule it? [y/N]');
    const unscheduled = /Not scheduled: batch (\S+) waits for its start/.exec(no.output)?.[1] ?? '';
    expect((await d.status(unscheduled)).scheduled_for).toBeNull();

    const yes = await d.tty(['batch', 'create', 'text', file, '--task', 'summary', '--allow-resend', '--at', '2031-02-02T10:00Z'], 'y\n');
    expect(yes.code, yes.output).toBe(0);
    const scheduled = /Created batch (\S+)/.exec(yes.output)?.[1] ?? '';
    expect(yes.output).toContain('nothing is sent before');
    expect((await d.status(scheduled)).scheduled_for).toBe('2031-02-02T10:00:00.000Z');

    const flag = await d.cli(['batch', 'create', 'text', file, '--task', 'summary', '--allow-resend', '--at', '2031-02-02T10:00Z', '--yes', '--json']);
    expect(flag.code, flag.stderr).toBe(0);
    expect((JSON.parse(flag.stdout) as { batch: { scheduled_for: string } }).batch.scheduled_for).toBe('2031-02-02T10:00:00.000Z');
  }, 180_000);
});
