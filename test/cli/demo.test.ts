// `npm run demo` says where its data goes before it writes anything, and again at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { defaultDataDir } from '../../src/main/engine/data-dir';

describe('batchdesk demo', () => {
  const dir = tempDir('batchdesk-demo-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('names the data folder and how to choose another before creating anything', async () => {
    const data = join(dir.path, 'data');
    const r = await runCli(['demo', '--data-dir', data]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const first = lines.findIndex((l) => l.includes(data));
    const created = lines.findIndex((l) => l.startsWith('Created'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(created);
    expect(lines.slice(0, created).join('\n')).toContain('--data-dir');
    expect(lines.slice(created).join('\n')).toContain(data);
  });

  it('suggests --data-dir only when the default folder was taken', async () => {
    const chosen = await runCli(['demo', '--data-dir', join(dir.path, 'chosen')]);
    expect(chosen.stdout.split('\n')[0]).toBe(`The demo's batches go into the data folder ${join(dir.path, 'chosen')} (--data-dir).`);
    expect(chosen.stdout).not.toContain('choose another');
    // The default folder, here under a temporary home on every system: the way to another is shown.
    const home = join(dir.path, 'home');
    const env = { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config'), APPDATA: join(home, 'AppData', 'Roaming') };
    const byDefault = await runCli(['demo'], env);
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.stdout.split('\n').slice(0, 2)).toEqual([
      `The demo's batches go into the data folder ${defaultDataDir(env)}`,
      'To keep them apart from your own, choose another with --data-dir DIR (npm run demo -- --data-dir /tmp/batchdesk-demo).',
    ]);
  });

  it('after the demo, `search "charged twice" --json` finds the recording that says it, with a snippet', async () => {
    const data = join(dir.path, 'search');
    expect((await runCli(['demo', '--data-dir', data])).code).toBe(0);
    const r = await runCli(['search', 'charged twice', '--json', '--data-dir', data]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hits: { batch: string; job: number; source: string; snippet: string; score: number }[] };
    expect(out.hits).toHaveLength(1);
    expect(out.hits[0]).toMatchObject({
      source: expect.stringMatching(/call-001-double-charge\.wav$/),
      snippet: expect.stringContaining('**charged** **twice**'),
    });
    expect(out.hits[0]?.score).toBeGreaterThan(0);
    // A list cut at --limit says so; one that is not, does not.
    const cut = await runCli(['search', 'charged twice', '--limit', '1', '--data-dir', data]);
    expect(cut.stdout).toContain('The best hit; more may match: --limit N shows up to 1000.');
    expect((await runCli(['search', 'charged twice', '--limit', '2', '--data-dir', data])).stdout).not.toContain('more may match');
    const none = await runCli(['search', 'zebra crossing', '--data-dir', data]);
    expect(none.stdout).toContain('Nothing found for "zebra crossing"');
    const bad = await runCli(['search', 'x', '--limit', '0', '--data-dir', data]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 1000');
  });

  it('`index <batch>` embeds its results, then `search --semantic` finds a paraphrase; index again sends nothing twice', async () => {
    const data = join(dir.path, 'index');
    expect((await runCli(['demo', '--data-dir', data])).code).toBe(0);
    const status = JSON.parse((await runCli(['status', '--json', '--data-dir', data])).stdout) as { batches: { id: string; capability: string }[] };
    const calls = status.batches.find((b) => b.capability === 'transcribe')?.id ?? '';
    const before = await runCli(['search', 'billed two times', '--semantic', '--data-dir', data]);
    expect(before.stderr).toContain('No results are embedded yet');
    // Where no one can answer, nothing is sent without --yes; the estimate is shown all the same.
    const refused = await runCli(['index', calls, '--data-dir', data]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/Embedding the results of \S+: up to 3 item\(s\), ~[\d,]+ characters, tier standard, €\d+\.\d{4} \(/);
    expect(refused.stderr).toContain(`Add --yes to send it: \`batchdesk index ${calls} --yes --data-dir ${data}\``);
    const none = JSON.parse((await runCli(['status', '--json', '--data-dir', data])).stdout) as { batches: { capability: string }[] };
    expect(none.batches.filter((b) => b.capability === 'embeddings')).toHaveLength(0);
    const indexed = await runCli(['index', calls, '--yes', '--data-dir', data]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/Embedding the results of \S+ in batch \S+ \(3 item\(s\)\)/);
    expect(indexed.stdout).toContain(`--semantic --batch ${calls}`);
    const r = await runCli(['search', 'billed two times', '--semantic', '--json', '--data-dir', data]);
    const hits = (JSON.parse(r.stdout) as { hits: { batch: string; source: string }[] }).hits;
    expect(hits[0]).toMatchObject({ batch: calls, source: expect.stringMatching(/call-001-double-charge\.wav$/) });
    const again = await runCli(['index', calls, '--yes', '--data-dir', data]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('are embedded in batch');
    // What is left, shown and not asked about: nothing.
    expect(again.stdout).toMatch(/^ {2}step 2 \S+: 0 of 3 item\(s\), ~0 characters, estimated €0\.0000$/m);
    expect(again.stdout).toMatch(/^Estimated still to spend: €0\.0000 \(€\d+\.\d{4} spent so far\); no budget\.$/m);
  });
});
