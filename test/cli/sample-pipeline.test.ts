// A sample of a pipeline, as a user runs it with the built command line on the embedded sandbox
// (README "Pipelines", `--sample`): the sample goes through every step, and its pause projects the
// whole pipeline from what it measured (the summaries' cost, not a fixed 15 characters a second);
// the budget it names, given to resume, finishes the run; and a budget pause's amount does too.
import type { SampleFigures } from '../../src/shared/batch-reason';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { wavOfSeconds } from '../helpers/wav-folder';

interface Batch {
  id: string;
  status: string;
  counts: { queued: number; succeeded: number; failed: number };
  cost: { spent: number };
  pause: { kind: string; reason: string; code: { code: string; figures?: SampleFigures | null } | null } | null;
}

/** The projection may be this far from what the whole run then spends. */
const TOLERANCE = 0.1;
const CALLS = 102;
const SAMPLE = 20;

/** 1/10,000 EUR of "€1.2345". */
const money = (eur: string): number => Math.round(Number(eur) * 10_000);

describe('a sample of a pipeline: transcribe, then summarise, then log in the CRM', () => {
  const dir = tempDir('batchdesk-sample-pipeline-');
  const calls = join(dir.path, 'calls');
  beforeAll(() => {
    assertBuilt();
    mkdirSync(calls);
    // Short calls of 2 to 8 seconds, in no order, as a day's recordings come: the sandbox's canned
    // transcripts run far above the 15 characters a second the estimate made before assumes, so
    // its summaries cost three times that estimate (as in the issue: it was 17 % low on real ones).
    for (let i = 0; i < CALLS; i++) writeFileSync(join(calls, `call-${String(i).padStart(3, '0')}.wav`), wavOfSeconds(2 + ((i * 7919) % 7), i));
  });
  afterAll(() => dir.cleanup());

  const pipeline = async (d: string[], extra: string[]): Promise<string> => {
    const r = await runCli(['batch', 'create', 'transcribe', calls, '--then', 'text:summary', '--then', 'crm:conversation', ...extra, '--json', ...d]);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { batch: { id: string } }).batch.id;
  };
  const steps = async (id: string, d: string[]): Promise<Batch[]> =>
    (JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as { batches: Batch[] }).batches;
  const spent = (bs: readonly Batch[]): number => bs.reduce((n, b) => n + b.cost.spent, 0);

  it('projects every step from the sample, within 10 % of what the whole run spends, and its budget finishes the run', async () => {
    const d = ['--data-dir', join(dir.path, 'sampled')];
    const id = await pipeline(d, ['--sample', String(SAMPLE)]);
    const run = await runCli(['run', id, ...d]);
    expect(run.code, run.stderr).toBe(3);
    const paused = await steps(id, d);
    // The sample went through every step before the pause, and no other item did.
    expect(paused.map((b) => b.counts.succeeded)).toEqual([SAMPLE, SAMPLE, SAMPLE]);
    const reason = paused[0]?.pause?.reason ?? '';
    expect(paused[0]?.pause?.kind).toBe('sample');
    expect(reason).toMatch(
      new RegExp(
        `^Sample done: ${SAMPLE} of ${CALLS} items \\(${SAMPLE} succeeded, 0 failed\\), through every step: €\\d+\\.\\d{4} spent \\(transcribe €\\d+\\.\\d{4}, text \\(summary\\) €\\d+\\.\\d{4}, crm \\(conversation\\) €\\d+\\.\\d{4}\\)\\. ` +
          `The other ${CALLS - SAMPLE} would cost about €\\d+\\.\\d{4}: transcribe €\\d+\\.\\d{4} \\(their own audio seconds\\), text \\(summary\\) €\\d+\\.\\d{4} \\([^)]*measured on the sample\\), crm \\(conversation\\) €\\d+\\.\\d{4} \\(€0\\.0005 per item, measured on the sample\\); ` +
          `about €(\\d+\\.\\d{4}) for the whole pipeline \\(estimated before: €\\d+\\.\\d{4}\\)\\. A budget of €(\\d+\\.\\d\\d) covers it with room for the spread the sample showed \\(\`batchdesk resume ${id} --budget \\2\`\\)\\.`,
      ),
    );
    const [, projected = '', budget = ''] = /about €(\d+\.\d{4}) for the whole pipeline.*A budget of €(\d+\.\d\d)/.exec(reason) ?? [];
    // The window says the same figures from the pause's code, in its own language.
    const figures = paused[0]?.pause?.code?.figures;
    expect(figures).toMatchObject({ done: SAMPLE, total: CALLS, succeeded: SAMPLE, failed: 0, left: CALLS - SAMPLE, steps: 3, budgetE4: money(budget) });
    expect((figures?.spentE4 ?? 0) + (figures?.restE4 ?? 0)).toBe(money(projected));

    const resumed = await runCli(['resume', id, '--budget', budget, '--yes', ...d]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).not.toContain('pauses again');
    const rest = await runCli(['run', id, ...d]);
    expect(rest.code, rest.stderr).toBe(0);
    const done = await steps(id, d);
    expect(done.map((b) => [b.status, b.counts.succeeded])).toEqual([
      ['done', CALLS],
      ['done', CALLS],
      ['done', CALLS],
    ]);
    const total = spent(done);
    expect(Math.abs(money(projected) - total) / total).toBeLessThanOrEqual(TOLERANCE);
    expect(money(budget)).toBeGreaterThanOrEqual(total);
  }, 120_000);

  it("a budget pause's amount, given to resume, finishes the pipeline without pausing again", async () => {
    const d = ['--data-dir', join(dir.path, 'budgeted')];
    // Room for about 40 calls through every step; the summaries are most of the cost. The amount
    // named at the pause must cover the summaries still to come at what they measure, with room
    // for their spread: at their mean alone, it paused again at 98 of 102.
    const id = await pipeline(d, ['--budget', '3']);
    expect((await runCli(['run', id, ...d])).code).toBe(3);
    const paused = await steps(id, d);
    const pause = paused.find((b) => b.pause?.kind === 'budget')?.pause?.reason ?? '';
    const amount = /`batchdesk resume \S+ --budget (\d+\.\d\d)/.exec(pause)?.[1] ?? '';
    expect(amount, pause).not.toBe('');
    expect((await runCli(['resume', id, '--budget', amount, '--yes', ...d])).code).toBe(0);
    const rest = await runCli(['run', id, ...d]);
    expect(rest.code, rest.stderr).toBe(0);
    const done = await steps(id, d);
    expect(done.map((b) => b.status)).toEqual(['done', 'done', 'done']);
    expect(money(amount)).toBeGreaterThanOrEqual(spent(done));
  }, 120_000);
});
