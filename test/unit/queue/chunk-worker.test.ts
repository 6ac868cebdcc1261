// The command line starts the import's writing thread ahead only for a `batch create` of a large
// enough file; the thread started ahead is the one the import then uses, and it never keeps a
// process alive that does not use it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkWorker, startChunkWorkerAhead, startChunkWorkerFor, THREAD_MIN_BYTES } from '../../../src/main/engine/queue/chunk-worker';

const dir = mkdtempSync(join(tmpdir(), 'bd-chunk-worker-'));
const large = join(dir, 'large.csv');
const small = join(dir, 'small.csv');
writeFileSync(large, `to,text\n${'+442079460000,hello\n'.repeat(Math.ceil(THREAD_MIN_BYTES / 20))}`);
writeFileSync(small, 'to,text\n+442079460000,hello\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a writing thread started ahead', () => {
  it('is started for a batch create naming a large file, and is the thread an import then takes', async () => {
    expect(startChunkWorkerFor(['batch', 'list'])).toBe(false);
    expect(startChunkWorkerFor(['status', large])).toBe(false);
    expect(startChunkWorkerFor(['batch', 'create', 'channel', small, '--name', 'x'])).toBe(false);
    expect(startChunkWorkerFor(['batch', 'create', 'channel', join(dir, 'missing.csv')])).toBe(false);
    expect(startChunkWorkerFor(['batch', 'create', 'channel', '--name', 'x', large])).toBe(true);
    // Asked again, the thread already started ahead is returned, not a second one.
    const ahead = startChunkWorkerAhead();
    const first = chunkWorker();
    const second = chunkWorker();
    expect(first).toBe(ahead);
    expect(second).not.toBe(ahead);
    await Promise.all([first.terminate(), second.terminate()]);
  });

  it('does not keep a process alive that never imports', () => {
    const script = `
      import { startChunkWorkerFor } from ${JSON.stringify(join(process.cwd(), 'src/main/engine/queue/chunk-worker.ts'))};
      if (!startChunkWorkerFor(['batch', 'create', 'channel', ${JSON.stringify(large)}])) process.exit(3);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
  });
});
