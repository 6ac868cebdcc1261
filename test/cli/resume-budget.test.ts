// A batch paused by its budget and resumed without a new one would pause again at its next item:
// resume says so at once, with the amount that covers the rest, instead of only "Resumed".
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { RECORDINGS } from '../integration/harness';

describe('resume of a batch paused by its budget', () => {
  const dir = tempDir('batchdesk-resume-budget-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('without --budget names the amount that covers the rest; with enough, it does not', async () => {
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    for (const f of ['call-001-double-charge.wav', 'call-002-late-parcel.wav', 'call-003-cancel-plan.wav']) copyFileSync(join(RECORDINGS, f), join(calls, f));
    const d = ['--data-dir', join(dir.path, 'data')];
    // Each recording costs about €0.002 to transcribe: €0.003 has room for one (the embedded sandbox sends).
    const created = await runCli(['batch', 'create', 'transcribe', calls, '--budget', '0.003', '--json', ...d]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;
    const run = await runCli(['run', id, ...d]);
    expect(run.code, run.stderr).not.toBe(1);
    const paused = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as { batches: { status: string; pause: { kind: string } | null }[] };
    expect(paused.batches[0]?.pause?.kind).toBe('budget');

    const plain = await runCli(['resume', id, '--yes', ...d]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(
      new RegExp(
        `^Resumed ${id}\\. Its budget, €0\\.0030 \\(€0\\.00\\d\\d spent\\), is below what is left, so it pauses again at the next item that does not fit: \`batchdesk resume ${id} --budget (\\d+\\.\\d\\d) --data-dir [^\`]+\` covers what is spent and the estimate of what is left, or \`--budget none\` removes it\\.$`,
        'm',
      ),
    );
    // Not a run to start: it would send nothing.
    expect(plain.stdout).not.toContain('to continue sending');
    const amount = /--budget (\d+\.\d\d) --data-dir/.exec(plain.stdout)?.[1] ?? '';

    // Paused again by its run; a new budget still too small is warned of as well.
    expect((await runCli(['run', id, ...d])).code).not.toBe(1);
    const small = await runCli(['resume', id, '--budget', '0.004', '--yes', ...d]);
    expect(small.code, small.stderr).toBe(0);
    expect(small.stdout).toMatch(/Its budget, €0\.0040 \(€0\.00\d\d spent\), is below what is left/);
    expect((await runCli(['run', id, ...d])).code).not.toBe(1);
    // Resumed with the amount named: no warning, the run to start, and the rest is sent.
    const enough = await runCli(['resume', id, '--budget', amount, '--yes', ...d]);
    expect(enough.code, enough.stderr).toBe(0);
    expect(enough.stdout).toContain(`Resumed ${id}.`);
    expect(enough.stdout).not.toContain('pauses again');
    expect(enough.stdout).toContain('to continue sending');
    const done = await runCli(['run', id, ...d]);
    expect(done.code, done.stderr).toBe(0);
    const after = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as { batches: { status: string; counts: { succeeded: number } }[] };
    expect(after.batches[0]?.counts.succeeded).toBe(3);
  }, 60_000);

  it("names the amount when a later step's summary paused the pipeline and the first step, finished, is the one named", async () => {
    const d = ['--data-dir', join(dir.path, 'data-pipeline')];
    // Room for the three transcripts (about €0.006), none for a summary.
    const created = await runCli(['batch', 'create', 'transcribe', RECORDINGS, '--then', 'text:summary', '--budget', '0.01', '--json', ...d]);
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout) as { batch: { id: string }; steps: { id: string }[] };
    const [id, next] = [out.batch.id, out.steps[0]?.id ?? ''];
    expect((await runCli(['run', id, ...d])).code).not.toBe(1);
    const paused = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as {
      batches: { id: string; status: string; pause: { kind: string } | null }[];
    };
    expect(paused.batches.find((b) => b.id === next)?.pause?.kind).toBe('budget');
    const plain = await runCli(['resume', id, '--yes', ...d]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(
      new RegExp(
        `^Resumed ${id} \\(with every step of its pipeline: ${next}\\)\\. Its budget, €0\\.0100 \\(€0\\.00\\d\\d spent\\), is below what is left`,
        'm',
      ),
    );
    expect(plain.stdout).not.toContain('to continue sending');
  }, 60_000);
});
