// The window sends only what its user started: a batch made with `batch create` waits for Start
// when the window opens; and when another process holds the data folder, the window says so and
// sends its batches as soon as that process is gone.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startHostFixture, type HostFixture } from './host-fixture';
import type { BatchSummary } from '../../src/shared/domain';
import type { RunnerStatus } from '../../src/shared/contract';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOLD_LOCK = fileURLToPath(new URL('./fixtures/hold-lock.ts', import.meta.url));

const fixtures: HostFixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.close();
});

function csv(dir: string, n: number): string {
  const path = join(dir, `m-${n}-${Date.now()}.csv`);
  const rows = ['to,text', ...Array.from({ length: n }, (_, i) => `+44207946${String(i).padStart(4, '0')},Parcel ${i} is on its way`)];
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

async function until(what: string, pred: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('starting batches from the window', () => {
  it('a batch created by `batch create` is not sent when the window opens; Start sends it', async () => {
    const f = await startHostFixture();
    fixtures.push(f);
    const { batch } = await f.service.engine.createBatch({ capability: 'channel', paths: [csv(f.dataDir, 3)] });
    const id = batch?.id ?? '';
    f.service.start(); // what opening the app does
    await new Promise((r) => setTimeout(r, 600));
    const got = (await f.rpc('batches.get', { id })).json as BatchSummary;
    expect(got).toMatchObject({ status: 'pending', started: false, counts: { queued: 3, succeeded: 0 } });
    expect(f.service.engine.jobs.firstSucceeded(id)).toBeNull();

    const started = await f.rpc('batches.start', { id });
    expect(started.status).toBe(200);
    await until('the batch to finish', async () => ((await f.rpc('batches.get', { id })).json as BatchSummary).status === 'done');
  });

  it('"not found" reaches the window as not found', async () => {
    const f = await startHostFixture();
    fixtures.push(f);
    const r = await f.rpc('batches.start', { id: 'bnosuchbatch' });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ error: { code: 'not_found' } });
  });

  it('while another process sends from the folder, the window says so, and sends its batch when that one is gone', async () => {
    const f = await startHostFixture();
    fixtures.push(f);
    const holder = spawn(process.execPath, ['--import', 'tsx', HOLD_LOCK, f.dataDir], { cwd: ROOT });
    const held = await new Promise<string>((resolve) => createInterface({ input: holder.stdout }).once('line', resolve));
    expect(held).toBe('held');
    try {
      // Browser uploads are the only paths a page may name: put the CSV where uploads go.
      const up = join(f.service.engine.uploadsDir, '0123456789abcdef');
      mkdirSync(up, { recursive: true });
      const r = await f.rpc('batches.create', { capability: 'channel', paths: [csv(up, 2)] });
      expect(r.status).toBe(200);
      const id = (r.json as { batch: BatchSummary }).batch.id;
      await until('the blocked notice', async () => ((await f.rpc('runner.get', {})).json as RunnerStatus).state === 'blocked');
      const status = (await f.rpc('runner.get', {})).json as RunnerStatus;
      expect(status.reason).toContain(`process ${holder.pid ?? '?'}`);
      expect(status.reason).toMatch(/sent as soon as it is done/);
      expect(((await f.rpc('batches.get', { id })).json as BatchSummary).counts.succeeded).toBe(0);

      holder.kill('SIGKILL');
      await until(
        'the batch to be sent after the other process is gone',
        async () => ((await f.rpc('batches.get', { id })).json as BatchSummary).status === 'done',
      );
      expect(((await f.rpc('runner.get', {})).json as RunnerStatus).state).not.toBe('blocked');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
