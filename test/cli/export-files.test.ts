// `batchdesk export <id> --format files --out DIR` as a user meets it: the built CLI against the
// sandbox; each item's own file in DIR (created when missing), a summary line, nothing
// overwritten on a second export, refusals and failures that say what to do, with exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const SAMPLES = join(process.cwd(), 'resources', 'samples');

describe('batchdesk export --format files', () => {
  let sb: SandboxHandle;
  const dir = tempDir('batchdesk-cli-files-');
  let n = 0;
  const fresh = () => {
    const dataDir = join(dir.path, `data-${++n}`);
    return { dataDir, args: ['--data-dir', dataDir] };
  };

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  async function ttsBatch(d: { args: string[] }): Promise<string> {
    const csv = join(dir.path, `lines-${n}.csv`);
    writeFileSync(csv, 'text,name\nYour parcel has arrived.,greeting\nThank you for calling.,\nGoodbye!,greeting\n');
    const created = await runCli(['batch', 'create', 'tts', csv, ...d.args]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id, '--api-url', sb.url, ...d.args], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code, run.stderr).toBe(0);
    return id;
  }

  it('writes each answer as received into a new folder, then numbers copies instead of overwriting', async () => {
    const d = fresh();
    const id = await ttsBatch(d);
    const out = join(dir.path, 'speech', 'october'); // neither exists yet
    const first = await runCli(['export', id, '--format', 'files', '--out', out, ...d.args]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Wrote 3 file(s) of ${id} to ${out} (0 item(s) had no file: failed or not done)`);
    expect(readdirSync(out).sort()).toEqual(['greeting (2).wav', 'greeting.wav', 'row-3.wav']);
    const saved = join(d.dataDir, 'outputs', id);
    for (const name of readdirSync(out)) expect(readFileSync(join(out, name)).equals(readFileSync(join(saved, name))), name).toBe(true);

    writeFileSync(join(out, 'greeting (3).wav'), 'mine');
    const again = await runCli(['export', id, '--format', 'files', '--out', out, ...d.args]);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'greeting (2).wav',
      'greeting (3).wav',
      'greeting (4).wav',
      'greeting (5).wav',
      'greeting.wav',
      'row-3 (2).wav',
      'row-3.wav',
    ]);
    expect(readFileSync(join(out, 'greeting (3).wav'), 'utf8')).toBe('mine');
  });

  it('names a missing saved answer with what to do, writes the rest and exits 1', async () => {
    const d = fresh();
    const id = await ttsBatch(d);
    rmSync(join(d.dataDir, 'outputs', id, 'row-3.wav'));
    const out = join(dir.path, 'partial');
    const r = await runCli(['export', id, '--format', 'files', '--out', out, ...d.args]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Wrote 2 file(s)');
    expect(r.stderr).toMatch(
      /! lines-\d+\.csv row 3: its saved answer .*row-3\.wav cannot be read \(moved or deleted\); put it back, or retry the item in a new batch/,
    );
  });

  it('refuses what has no file per item, and usage mistakes, with exit 2', async () => {
    const d = fresh();
    const created = await runCli(['batch', 'create', 'channel', join(SAMPLES, 'messages.csv'), ...d.args]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const out = join(dir.path, 'messages');
    const refused = await runCli(['export', id, '--format', 'files', '--out', out, ...d.args]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("A channel batch's results have no file per item");
    // The command to use instead, ready to copy: this batch, an --out, this data folder.
    expect(refused.stderr).toContain(`\`batchdesk export ${id} --format csv --out ${id}.csv --data-dir ${d.dataDir}\``);
    expect(() => readdirSync(out)).toThrow();

    const noOut = await runCli(['export', id, '--format', 'files', ...d.args]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('needs --out DIR');
    const badFormat = await runCli(['export', id, '--format', 'zip', '--out', out, ...d.args]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('--format must be csv, json, txt, invoices, line-items, xlsx, files, srt, vtt or ubl');

    // --out naming a file, not a folder: refused before anything is written.
    const csv = join(dir.path, 'one.csv');
    writeFileSync(csv, 'text\nHello.\n');
    const tts = /Created batch (\S+)/.exec((await runCli(['batch', 'create', 'tts', csv, ...d.args])).stdout)?.[1] ?? '';
    const blocker = join(dir.path, 'a-file');
    writeFileSync(blocker, 'x');
    const onFile = await runCli(['export', tts, '--format', 'files', '--out', blocker, ...d.args]);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain(`Cannot create the folder ${blocker} (a file of that name is in the way). Choose a folder you can write to.`);
  });

  it("keeps the dropped folder's subfolders under --out; a name taken in one subfolder is free in another", async () => {
    const d = fresh();
    const calls = join(dir.path, 'calls-26-nov');
    const rec = join(SAMPLES, 'recordings');
    mkdirSync(join(calls, 'monday', 'morning'), { recursive: true });
    mkdirSync(join(calls, 'tuesday'), { recursive: true });
    copyFileSync(join(rec, 'call-001-double-charge.wav'), join(calls, 'call-001-double-charge.wav'));
    copyFileSync(join(rec, 'call-002-late-parcel.wav'), join(calls, 'monday', 'morning', 'call.wav'));
    copyFileSync(join(rec, 'call-003-cancel-plan.wav'), join(calls, 'tuesday', 'call.wav'));
    const created = await runCli(['batch', 'create', 'transcribe', calls, ...d.args]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    // Named after the folder, its count and kind of item.
    expect(created.stdout).toContain(`${id}  calls-26-nov (3 recordings)`);
    const run = await runCli(['run', id, '--api-url', sb.url, ...d.args], { BATCHDESK_API_KEY: sb.apiKey });
    expect(run.code, run.stderr).toBe(0);

    const out = join(dir.path, 'transcripts');
    const files = await runCli(['export', id, '--format', 'files', '--out', out, ...d.args]);
    expect(files.code, files.stderr).toBe(0);
    const list = (sub: string): string[] => readdirSync(join(out, sub)).sort();
    expect(list('')).toEqual([
      'call-001-double-charge.json',
      'call-001-double-charge.srt',
      'call-001-double-charge.txt',
      'call-001-double-charge.vtt',
      'monday',
      'tuesday',
    ]);
    expect(list('monday')).toEqual(['morning']);
    expect(list(join('monday', 'morning'))).toEqual(['call.json', 'call.srt', 'call.txt', 'call.vtt']);
    expect(list('tuesday')).toEqual(['call.json', 'call.srt', 'call.txt', 'call.vtt']);
    expect(readFileSync(join(out, 'tuesday', 'call.txt'), 'utf8')).not.toBe(readFileSync(join(out, 'monday', 'morning', 'call.txt'), 'utf8'));

    // Again into the same folder: numbered copies inside each subfolder, nothing overwritten.
    const again = await runCli(['export', id, '--format', 'srt', '--out', out, ...d.args]);
    expect(again.code, again.stderr).toBe(0);
    expect(list('tuesday')).toContain('call (2).srt');
    expect(list(join('monday', 'morning'))).toContain('call (2).srt');
  });

  it('says so when nothing has succeeded yet', async () => {
    const d = fresh();
    const csv = join(dir.path, 'waiting.csv');
    writeFileSync(csv, 'text\nNot sent yet.\n');
    const created = await runCli(['batch', 'create', 'tts', csv, ...d.args]);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const r = await runCli(['export', id, '--format', 'files', '--out', join(dir.path, 'empty'), ...d.args]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Wrote 0 file(s) of ${id}`);
    expect(r.stdout).toContain('(1 item(s) had no file: failed or not done)');
    // Copied as printed, it works on the same data folder (cli/suggested-commands.ts).
    expect(r.stdout).toContain(`\`batchdesk run ${id} --data-dir ${d.dataDir}\` first`);
  });
});
