// `cancel` leaves finished batches as they are: done stays done (README, status), and a batch
// done with failures can still be retried. In a pipeline it cancels only the steps with work left.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('cancel of a finished batch', () => {
  const dir = tempDir('batchdesk-cancel-finished-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  const statusOf = async (id: string, d: string[]): Promise<string> => {
    const s = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as { batches: { id: string; status: string }[] };
    return s.batches.find((b) => b.id === id)?.status ?? 'missing';
  };

  it('is refused for a done batch, which stays done; a step with work left after it is cancelled alone', async () => {
    const d = ['--data-dir', join(dir.path, 'data')];
    const notes = join(dir.path, 'notes.txt');
    writeFileSync(notes, 'My refund has not arrived.\nWhere is my parcel?\n');
    const created = await runCli(['batch', 'create', 'text', notes, '--task', 'summary', '--json', ...d]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;
    expect((await runCli(['run', id, ...d])).code).toBe(0);
    expect(await statusOf(id, d)).toBe('done');

    const refused = await runCli(['cancel', id, ...d]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${id} is done: nothing is left to send, so nothing was cancelled (it stays done).`);
    expect(await statusOf(id, d)).toBe('done');

    // A follow-up of it, not run: cancelling the pipeline by the first step's id cancels the follow-up only.
    const follow = await runCli(['batch', 'create', 'tts', '--from', id, '--json', ...d]);
    expect(follow.code, follow.stderr).toBe(0);
    const next = (JSON.parse(follow.stdout) as { batch: { id: string } }).batch.id;
    const cancelled = await runCli(['cancel', id, ...d]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(
      `Cancelled ${next}, the step(s) of ${id}'s pipeline with work left (finished ones stay as they are: ${id}): 2 queued item(s) in the pipeline will not be sent.`,
    );
    expect(await statusOf(id, d)).toBe('done');
    expect(await statusOf(next, d)).toBe('cancelled');

    const again = await runCli(['cancel', next, ...d]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${next} was cancelled already: nothing was changed.`);
  });
});
