// The window's reads while the engine's thread cannot run: the engine's process (its source in a
// real Node child, as `npm run web` runs it) is stopped with SIGSTOP, as a long import chunk or a
// busy dispatch holds its thread; the window's lists, batch, job page, item, search and costs are
// still answered, by the reader thread of the window's process over the data folder opened
// read-only. A write waits for the engine, and the read after its answer sees it.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { EngineClient } from '../../src/main/service/engine-process/engine-client';
import { nodeChildEngine } from '../../src/main/service/engine-process/node-child';
import { readerThread } from '../../src/main/service/reader/reader-client';
import type { DispatchResult } from '../../src/main/service/dispatch';
import { writeWavFolder } from '../helpers/wav-folder';
import { tempDir } from '../helpers/temp-dir';

const ENTRY = join(process.cwd(), 'src', 'main', 'service', 'engine-process', 'entry.ts');
const READER = join(process.cwd(), 'src', 'main', 'service', 'reader', 'reader-thread.ts');

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The answer, or 'no answer' when none came while the engine was stopped (the old layout: every read waits for it). */
function answerOrNone(p: Promise<DispatchResult>, ms = 30_000): Promise<DispatchResult | 'no answer'> {
  return Promise.race([p, new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms).unref())]);
}

function result<T>(r: DispatchResult | 'no answer'): T {
  if (r === 'no answer') throw new Error('the read was not answered while the engine was stopped');
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.result as T;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("the window's reads while the engine's thread is held", () => {
  it('are answered by the reader thread; a write waits for the engine and the next read sees it', async () => {
    const dir = tempDir('batchdesk-reader-');
    cleanups.push(() => dir.cleanup());
    const dataDir = join(dir.path, 'data');
    const calls = writeWavFolder(join(dir.path, 'calls'), 8);
    const client = new EngineClient(
      nodeChildEngine(ENTRY, { execArgv: ['--import', 'tsx'] }),
      { dataDir, transport: 'electron', apiUrl: 'http://127.0.0.1:9', storeUrl: null },
      {},
      { reader: readerThread(READER, { execArgv: ['--import', 'tsx'] }) },
    );
    cleanups.push(() => client.close());
    await client.ready();
    await until('the reader thread', () => client.readsOffEngine);

    // Scheduled a day ahead: nothing is sent, the items stay queued.
    const created = result<{ batch: { id: string } }>(
      await client.call('batches.create', { capability: 'transcribe', paths: [calls], at: Date.now() + 86_400_000 }),
    );
    const id = created.batch.id;
    // The read right after the engine's answer sees what it wrote.
    expect(result<{ id: string }[]>(await client.call('batches.list', {})).map((b) => b.id)).toEqual([id]);

    const before = result<{ status: string }>(await client.call('batches.get', { id }));
    const pid = client.pid ?? -1;
    process.kill(pid, 'SIGSTOP');
    let stopped = true;
    cleanups.push(() => {
      if (stopped) process.kill(pid, 'SIGCONT');
    });
    // A write goes to the engine: it waits while the engine cannot run.
    let paused: DispatchResult | null = null;
    const pausing = client.call('batches.pause', { id }).then((r) => (paused = r));

    const list = result<{ id: string; total: number }[]>(await answerOrNone(client.call('batches.list', {})));
    expect(list.map((b) => [b.id, b.total])).toEqual([[id, 8]]);
    expect(result<{ status: string }>(await answerOrNone(client.call('batches.get', { id: id.slice(0, 8) })))).toEqual(before);
    const page = result<{ total: number; rows: { id: number; state: string }[] }>(
      await answerOrNone(client.call('jobs.list', { batchId: id, limit: 5, offset: 0 })),
    );
    expect(page.total).toBe(8);
    expect(page.rows.map((r) => r.state)).toEqual(Array(5).fill('queued'));
    const job = page.rows[0]?.id ?? -1;
    expect(result<{ id: number }>(await answerOrNone(client.call('jobs.get', { id: job }))).id).toBe(job);
    expect(result<{ next: number | null }>(await answerOrNone(client.call('jobs.neighbours', { batchId: id, jobId: job }))).next).toBe(page.rows[1]?.id);
    expect(result<{ hits: unknown[] }>(await answerOrNone(client.call('search.query', { query: 'nothing finished yet' }))).hits).toEqual([]);
    expect(result<{ total: number }>(await answerOrNone(client.call('costs.report', {}))).total).toBe(0);
    // A call that is not a read was not answered meanwhile.
    expect(paused).toBeNull();

    process.kill(pid, 'SIGCONT');
    stopped = false;
    await pausing;
    expect(result<{ status: string }>(paused ?? 'no answer').status).toBe('paused');
    expect(result<{ status: string }>(await client.call('batches.get', { id })).status).toBe('paused');
  });
});
