// `run --watch` says when a batch it sends pauses (here a hot folder's day batch reaching its
// day's budget), once, with the reason: it prints the files it takes, and a pause went unseen.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { RECORDINGS } from '../integration/harness';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('run --watch', () => {
  const dir = tempDir('batchdesk-watch-pause-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it("says once that a day's batch paused on its budget, with the reason and the command to raise it", async () => {
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    const data = ['--data-dir', join(dir.path, 'data')];
    // Each recording costs about €0.002 to transcribe: a day's budget of €0.003 has room for one.
    const added = await runCli(['watch', 'add', calls, '--capability', 'transcribe', '--budget-per-day', '0.003', ...data]);
    expect(added.code, added.stderr).toBe(0);
    for (const f of ['call-001-double-charge.wav', 'call-002-late-parcel.wav', 'call-003-cancel-plan.wav']) copyFileSync(join(RECORDINGS, f), join(calls, f));
    const run = startCli(['run', '--watch', '--settle', '0.3', ...data]);
    let err = '';
    run.child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    const by = Date.now() + 20_000;
    while (!/paused \(budget\)/.test(err) && Date.now() < by) await sleep(100);
    // A few more looks: it is said once, not at every look.
    await sleep(2_500);
    run.child.kill('SIGTERM');
    const done = await run.done;
    expect(done.stdout).toMatch(/\+ .*call-00\d.*-> batch \S+, item 1 \(the day's batch, new\)/);
    const said = done.stderr.match(/^! batch \S+ \(.*\) paused \(budget\): The budget of €0\.0030 would be crossed.*$/gm) ?? [];
    expect(said, done.stderr).toHaveLength(1);
    expect(said[0]).toMatch(/batchdesk resume \S+ --budget \d+\.\d\d --data-dir /);
    // watch list shows the day's batch paused too, with the same reason.
    const listed = await runCli(['watch', 'list', ...data]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /^ {4}! batch \S+ paused \(budget\): The budget of €0\.0030 would be crossed.*batchdesk resume \S+ --budget \d+\.\d\d --data-dir /m,
    );
  });
});
