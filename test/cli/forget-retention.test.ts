// batchdesk forget and batchdesk retention, as a user types them: reports that never repeat the
// value, an opted-out person kept opted out, rules refused with their sentence.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk forget and retention', () => {
  const dir = tempDir('batchdesk-cli-forget-');
  const args = ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('forgets a name and a phone number, reporting where without the value; the opted-out stay opted out', async () => {
    expect((await runCli(['optout', 'add', '+44 20 7946 0031', ...args])).code).toBe(0);
    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460032,Hi Jane Doe\n+442079460033,Hi Max\n');
    const created = await runCli(['batch', 'create', 'channel', csv, '--keep-files-days', '3', ...args]);
    expect(created.code, created.stderr).toBe(0);

    const dry = await runCli(['forget', 'Jane Doe', '--dry-run', '--json', ...args]);
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { jobs: number; replaced: Record<string, number>; dry_run: boolean };
    expect(report).toMatchObject({ jobs: 1, dry_run: true, replaced: { 'jobs.payload_json': 1 } });
    expect(dry.stdout).not.toContain('Jane');

    const done = await runCli(['forget', 'Jane Doe', ...args]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('jobs.payload_json');
    expect(done.stdout).toContain('replaced by [FORGOTTEN]');
    expect(done.stdout).toContain('1 job(s) not sent yet cancelled');
    expect(done.stdout).not.toContain('Jane');
    expect((await runCli(['forget', 'jane doe', ...args])).stdout).toContain('nowhere');

    const phone = await runCli(['forget', '0044 20 7946 0031', ...args]);
    expect(phone.code, phone.stderr).toBe(0);
    expect(phone.stdout).toContain('opt-out entry kept as a keyed hash');
    expect(phone.stdout).not.toMatch(/7946 ?0031/);
    const list = JSON.parse((await runCli(['optout', 'list', '--json', ...args])).stdout) as { opt_outs: { recipient: string }[] };
    expect(list.opt_outs.map((o) => o.recipient)).toEqual([expect.stringMatching(/^forgotten:[0-9a-f]{64}$/)]);
    writeFileSync(csv, 'to,text\n+442079460031,Hi again\n+442079460034,Hi\n');
    const again = await runCli(['batch', 'create', 'channel', csv, ...args]);
    // Said as a person who asked to be forgotten, never by the entry's hash.
    expect(`${again.stdout}${again.stderr}`).toMatch(/row 2: .*asked to be forgotten and stays opted out.*skipped/);
    expect(`${again.stdout}${again.stderr}`).not.toContain('forgotten:');

    const bad = await runCli(['forget', '+99 1234 5678', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('+99 1234 5678');
  });

  it('retention: shows, runs and logs; refuses a period against its rule', async () => {
    const dry = await runCli(['retention', 'run', '--dry-run', ...args]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Nothing is due for deletion');
    expect((await runCli(['retention', 'log', ...args])).stdout).toContain('Retention has deleted nothing');
    const zero = await runCli(['batch', 'create', 'channel', join(dir.path, 'm.csv'), '--keep-files-days', '0', ...args]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--keep-files-days: a retention period is a whole number of days from 1 to 3650');
    expect((await runCli(['config', 'set', 'keep_results_days', 'soon', ...args])).code).toBe(2);
    expect((await runCli(['config', 'set', 'keep_results_days', '90', ...args])).code).toBe(0);
    expect((await runCli(['config', 'list', ...args])).stdout).toMatch(/keep_results_days\s+90/);
  });

  it("watch list and status print each folder's and batch's retention rule and redaction", async () => {
    const inbox = join(dir.path, 'inbox');
    mkdirSync(inbox);
    const add = await runCli(['watch', 'add', inbox, '--capability', 'transcribe', '--redact', 'cards,iban', '--keep-files-days', '30', ...args]);
    expect(add.code, add.stderr).toBe(0);
    const other = join(dir.path, 'scans');
    mkdirSync(other);
    expect((await runCli(['watch', 'add', other, '--capability', 'ocr', ...args])).code).toBe(0);
    // The data folder's default (set to 90 above) holds where a folder has no rule of its own.
    const list = await runCli(['watch', 'list', ...args]);
    expect(list.code, list.stderr).toBe(0);
    const [first = '', second = ''] = list.stdout.split(/\n(?=\S)/);
    expect(first).toContain('redacts cards,iban');
    expect(first).toContain('retention: files deleted 30 days after their item finished');
    expect(second).not.toContain('redacts');
    expect(second).toContain('retention: the default: result text dropped after 90 days');
    const json = JSON.parse((await runCli(['watch', 'list', '--json', ...args])).stdout) as { watches: { dir: string; keepFilesDays: number | null }[] };
    expect(json.watches.map((w) => [w.dir, w.keepFilesDays])).toEqual([
      [inbox, 30],
      [other, null],
    ]);

    const csv = join(dir.path, 'lines.txt');
    writeFileSync(csv, 'Hello caller\n');
    const created = await runCli(['batch', 'create', 'tts', csv, '--keep-files-days', '5', ...args]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const status = await runCli(['status', id, ...args]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`retention: files deleted 5 days after their item finished (batch ${id}) · result text dropped after 90 days (default)`);
    expect((await runCli(['config', 'set', 'keep_results_days', '0', ...args])).code).toBe(0);
  });
});
