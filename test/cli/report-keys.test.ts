// batchdesk keys add --rpm | keys set | keys list, batch create --key, and batchdesk report: the
// built command line as a user runs it (the embedded sandbox, the test session's keychain).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk keys set, batch create --key, report', () => {
  const dir = tempDir('batchdesk-cli-report-');
  const args = ['--data-dir', join(dir.path, 'data')];
  const label = `cli-${Date.now().toString(36)}`;
  beforeAll(() => assertBuilt());
  afterAll(async () => {
    await runCli(['keys', 'remove', label, ...args]);
    dir.cleanup();
  });

  it('stores a client key with its limit, changes it, and refuses a batch for a key nobody stored', async () => {
    const add = await runCli(
      ['keys', 'add', '--kind', 'channel', '--label', label, '--client', 'ACME GmbH', '--rpm', '600', ...args],
      {},
      'sk-test-0123456789abcd',
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`Stored channel key "${label}" (…abcd)`);
    expect(add.stdout).toContain('Its batches keep to 600 requests a minute.');
    const bad = await runCli(['keys', 'set', label, '--rpm', 'fast', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--rpm must be the key's request limit per minute, a whole number from 1 to 100000, or default");
    const set = await runCli(['keys', 'set', label, '--rpm', '120', '--client', 'ACME Holding', ...args]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(new RegExp(`\\* channel +${label} +…abcd +client ACME Holding +limit 120/min`));
    const list = JSON.parse((await runCli(['keys', 'list', '--json', ...args])).stdout) as { keys: { label: string; rpm: number | null; client: string }[] };
    expect(list.keys.find((k) => k.label === label)).toMatchObject({ rpm: 120, client: 'ACME Holding' });

    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460041,Hi\n');
    const refused = await runCli(['batch', 'create', 'channel', csv, '--key', 'nobody', ...args]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('No stored key is labelled "nobody".');
    const made = await runCli(['batch', 'create', 'channel', csv, '--key', label, '--json', ...args]);
    expect(made.code, made.stderr).toBe(0);
    expect((JSON.parse(made.stdout) as { batch: { key: unknown } }).batch.key).toEqual({ label, client: 'ACME Holding' });
    const status = await runCli(['status', ...args]);
    expect(status.stdout).toContain(`tier standard, key ${label}, client ACME Holding`);
  });

  it('reports spend by capability, client and day, as a table, CSV and JSON, never overwriting a file', async () => {
    const lines = join(dir.path, 'lines.txt');
    writeFileSync(lines, 'one\ntwo\nthree\n');
    const created = await runCli(['batch', 'create', 'text', lines, '--task', 'summary', '--name', 'Summaries', '--json', ...args]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;
    const run = await runCli(['run', id, ...args]);
    expect(run.code, run.stderr).toBe(0);

    const table = await runCli(['report', '--by', 'capability', ...args]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^capability +items +units +spent +days$/m);
    expect(table.stdout).toMatch(/^Summarise, reply, classify +3 /m);
    expect(table.stdout).toMatch(/^total +3 /m);

    const json = JSON.parse((await runCli(['report', '--by', 'client', '--format', 'json', ...args])).stdout) as {
      rows: { label: string; items: number; cost: number; cost_eur: string }[];
      total: number;
    };
    expect(json.rows).toEqual([expect.objectContaining({ label: 'No client', items: 3 })]);
    expect(json.rows[0]?.cost_eur).toMatch(/^\d+\.\d{4}$/);

    const out = join(dir.path, 'by-day.csv');
    const csv = await runCli(['report', '--by', 'day', '--format', 'csv', '--out', out, ...args]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    const rows = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(rows[0]).toBe('by,group,label,first_day,last_day,batches,items,units,unit,cost_eur');
    expect(rows[1]).toMatch(/^day,\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2},/);
    const again = await runCli(['report', '--by', 'day', '--format', 'csv', '--out', out, ...args]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists; give another --out name (nothing was overwritten)');

    const none = await runCli(['report', '--by', 'client', '--month', '2001-02', ...args]);
    expect(none.stdout).toContain('No spend from 2001-02-01 to 2001-02-28.');
    const badDay = await runCli(['report', '--by', 'day', '--from', '2026-02-30', ...args]);
    expect(badDay.code).toBe(2);
    expect(badDay.stderr).toContain('--from: not a real calendar day');
    const typo = await runCli(['report', '--by', 'batch', '--client', 'ACME', ...args]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('No batch is billed to the client "ACME"; clients with spend: "" (no client). Client names are matched exactly');
    const badBy = await runCli(['report', '--by', 'week', ...args]);
    expect(badBy.stderr).toContain('report needs --by client|key|batch|capability|day (got "week")');
  });
});
