// batchdesk compare: a batch's items at several tiers, sent and printed side by side.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk compare', () => {
  const dir = tempDir('batchdesk-cli-compare-');
  const args = ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('sends two recordings at three tiers and prints cost per item, projection and each result', async () => {
    const created = await runCli(['batch', 'create', 'transcribe', join(process.cwd(), 'resources', 'samples', 'recordings'), '--json', ...args]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;
    const bad = await runCli(['compare', id, '--tiers', 'basic,premium', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--tiers: "premium" is not a tier; the tiers are basic, standard, superior.');

    // The estimate per tier first; where no one can answer, nothing is made or sent without --yes.
    const refused = await runCli(['compare', id, '--tiers', 'basic,standard,superior', '--sample', '2', ...args]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(new RegExp(`^Comparing 2 item\\(s\\) of ${id} at 3 tiers`, 'm'));
    for (const t of ['basic', 'standard', 'superior']) expect(refused.stdout).toMatch(new RegExp(`^  ${t} +~\\d+ audio seconds?, €\\d\\.\\d{4}$`, 'm'));
    expect(refused.stdout).toMatch(/^Estimated cost: €\d\.\d{4} /m);
    expect(refused.stderr).toContain('Add --yes to send it: `batchdesk compare');
    const before = JSON.parse((await runCli(['status', '--json', ...args])).stdout) as { batches: unknown[] };
    expect(before.batches).toHaveLength(1);

    const r = await runCli(['compare', id, '--tiers', 'basic,standard,superior', '--sample', '2', '--yes', ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Tier comparison of ${id} ".*" \\(3 items, 2 compared\\):`, 'm'));
    for (const t of ['basic', 'standard', 'superior'])
      expect(r.stdout).toMatch(new RegExp(`^  ${t} +2/2 done, €\\d\\.\\d{4} spent, €\\d\\.\\d{4} per item, €\\d\\.\\d{2,4} for all 3`, 'm'));
    expect(r.stdout.match(/^ {4}(basic|standard|superior) +€\d\.\d{4} +\S/gm)).toHaveLength(6);
    // The batch compared was not sent; the three comparison batches were.
    const status = JSON.parse((await runCli(['status', '--json', ...args])).stdout) as { batches: { id: string; started: boolean; name: string }[] };
    expect(status.batches.find((b) => b.id === id)?.started).toBe(false);
    expect(status.batches.filter((b) => b.name.endsWith('tier (comparison)'))).toHaveLength(3);
  });
});
