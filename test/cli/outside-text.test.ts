// Text from outside (an API's error message, a file's name, a CSV cell) carrying terminal control
// sequences, through the built command line: nothing printed by `batch create`, `run` or `status`,
// nothing stored for display and nothing exported may drive a terminal (clear the screen, set the
// clipboard by OSC 52, show a disguised OSC 8 link, overwrite the line); the attempt's raw
// response alone keeps the bytes as they came.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, type CliResult } from '../helpers/cli';
import { channelOk, json, startHostileServer, type HostileServer } from '../helpers/hostile-server';
import { tempDir } from '../helpers/temp-dir';

const ESC = '\x1b';
/** Clear the screen, a command on the clipboard, a link shown as other words, then a CR over the line. */
const EVIL = `${ESC}[2J${ESC}]52;c;cm0gLXJmIH4K\x07${ESC}]8;;https://evil.example/${ESC}\\click here${ESC}]8;;${ESC}\\ \u009b31m\rAll items sent.`;
/** Any control character a terminal acts on (line feed and tab move on; they are allowed). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function printed(r: CliResult): string {
  return `${r.stdout}\n${r.stderr}`;
}

describe('control sequences from outside on the command line', () => {
  const dir = tempDir('batchdesk-cli-outside-');
  const data = (): string[] => ['--data-dir', join(dir.path, 'data')];
  let server: HostileServer;
  let csv = '';

  beforeAll(async () => {
    assertBuilt();
    // Row 2 is refused with the hostile words, row 3 sent.
    server = await startHostileServer((q, res) =>
      q.body.includes('first') ? json(res, 422, { error: { code: `bad${ESC}[5m`, message: `refused: ${EVIL}` } }) : channelOk(q, res),
    );
    csv = join(dir.path, `msgs${ESC}]0;owned\x07.csv`);
    writeFileSync(csv, `to,text,name\n+442079460001,"first ${ESC}[2J message",Ann\n+442079460002,second,"Bob${ESC}]52;c;eA==\x07"\n`);
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });

  it('are printed, stored for display and exported made visible, never as they came', async () => {
    const created = await runCli(['batch', 'create', 'channel', csv, ...data()]);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    const run = await runCli(['run', id, '--api-url', server.url, ...data()], { BATCHDESK_CHANNEL_KEY: 'ck_test_0123456789abcdef' });
    expect(run.code, run.stderr).toBe(1);
    const status = await runCli(['status', id, ...data()]);
    const statusJson = await runCli(['status', id, '--json', ...data()]);
    for (const r of [created, run, status, statusJson]) expect(printed(r)).not.toMatch(CONTROL);
    // The words are kept, visibly: the user can see what the API (or the file) tried.
    expect(status.stdout).toContain('msgs\\u001b]0;owned\\u0007.csv');
    // --json stays JSON, reading back as the same (escaped) name.
    expect(JSON.parse(statusJson.stdout).batches[0].name).toContain('msgs\\u001b]0;owned\\u0007.csv');

    // Sent without the cell's control characters (an imported cell drops them).
    expect(server.requests.map((q) => JSON.parse(q.body).text as string).sort()).toEqual(['first [2J message', 'second']);

    const db = new Database(join(dir.path, 'data', 'batchdesk.sqlite'), { readonly: true });
    const jobs = db.prepare('SELECT source, state, error_message, payload_json FROM jobs ORDER BY seq').all() as {
      source: string;
      state: string;
      error_message: string | null;
      payload_json: string;
    }[];
    const raw = db.prepare(`SELECT raw_response FROM jobs WHERE state = 'failed'`).get() as { raw_response: string } | undefined;
    const attempts = db.prepare('SELECT error_message FROM attempts WHERE error_message IS NOT NULL').all() as { error_message: string }[];
    db.close();
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'succeeded']);
    for (const j of jobs) {
      expect(j.source).not.toMatch(CONTROL);
      expect(j.payload_json).not.toMatch(/\\u001b|\\u0007/);
    }
    const message = jobs[0]?.error_message ?? '';
    expect(message).not.toMatch(CONTROL);
    expect(message).toContain('refused: \\u001b[2J\\u001b]52;c;cm0gLXJmIH4K\\u0007');
    expect(message).toContain('\\u000dAll items sent.');
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) expect(a.error_message).not.toMatch(CONTROL);
    // Only the raw response keeps the bytes as they came.
    // (JSON escapes C0 itself; the C1 CSI came as the character.)
    expect(raw?.raw_response).toContain('\u009b31m');

    for (const format of ['csv', 'txt'] as const) {
      const out = join(dir.path, `out.${format}`);
      const exp = await runCli(['export', id, '--format', format, '--out', out, ...data()]);
      expect(exp.code, exp.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text.replace(/\r\n/g, '\n'), format).not.toMatch(CONTROL);
      expect(text).toContain('\\u001b[2J');
      // A phone number is text to a spreadsheet, never a number or a formula.
      if (format === 'csv') expect(text).toContain(",'+442079460002,");
    }
  });

  it('already stored by an earlier version are escaped where they leave: the terminal, CSV and TXT exports', async () => {
    const listed = await runCli(['status', '--json', ...data()]);
    const id = (JSON.parse(listed.stdout) as { batches: { id: string }[] }).batches[0]?.id ?? '';
    const db = new Database(join(dir.path, 'data', 'batchdesk.sqlite'));
    db.prepare(`UPDATE batches SET name = ? WHERE id = ?`).run(`old ${EVIL}`, id);
    db.prepare(`UPDATE jobs SET error_message = ? WHERE batch_id = ? AND state = 'failed'`).run(`old ${EVIL}`, id);
    db.close();
    const status = await runCli(['status', id, ...data()]);
    expect(status.code).toBe(0);
    expect(printed(status)).not.toMatch(CONTROL);
    expect(status.stdout).toContain('old \\u001b[2J');
    for (const format of ['csv', 'txt'] as const) {
      const out = join(dir.path, `old.${format}`);
      expect((await runCli(['export', id, '--format', format, '--out', out, ...data()])).code).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text.replace(/\r\n/g, '\n'), format).not.toMatch(CONTROL);
      expect(text, format).toContain('old \\u001b[2J');
    }
  });
});
