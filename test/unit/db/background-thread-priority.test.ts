// Background threads give way to the engine's thread (engine/background-thread.ts, issue 39): on
// Linux each lowers its own nice value, and only its own. Read back from /proc, as the scheduler sees it.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, GIVE_WAY_TO_ENGINE_THREAD } from '../../../src/main/engine/background-thread';
import { READ_WORKER_SOURCE } from '../../../src/main/engine/importers/read-whole';
import { CHECKPOINT_THREAD_SOURCE as CHECKPOINT_SOURCE } from '../../../src/main/engine/db/background-checkpoint';
import { CHUNK_THREAD_SOURCE } from '../../../src/main/engine/queue/chunk-worker';

/** Field 19 of /proc/<pid>/task/<tid>/stat: the thread's nice value. */
const niceOf = (tid: number | 'self'): number => {
  const stat = readFileSync(tid === 'self' ? '/proc/thread-self/stat' : `/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

/** Runs the snippet in a worker that then reports its thread id and stays until told to go. */
async function niceOfWorker(env: NodeJS.ProcessEnv): Promise<number> {
  const w = new Worker(
    `${GIVE_WAY_TO_ENGINE_THREAD}
    const { parentPort } = require('node:worker_threads');
    parentPort.postMessage(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()));
    parentPort.on('message', () => process.exit(0));`,
    { eval: true, env },
  );
  const tid = await new Promise<number>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  try {
    return niceOf(tid);
  } finally {
    w.postMessage('go');
    await new Promise((r) => w.once('exit', r));
  }
}

describe.runIf(process.platform === 'linux')('background threads', () => {
  it('lower their own priority and leave the engine thread as it was', async () => {
    const before = niceOf('self');
    expect(await niceOfWorker({ ...process.env, BATCHDESK_THREAD_NICE: undefined })).toBe(Math.max(before, BACKGROUND_NICE));
    expect(niceOf('self')).toBe(before);
  });

  it('stay as they were when BATCHDESK_THREAD_NICE=0 (the bench A/B)', async () => {
    expect(await niceOfWorker({ ...process.env, BATCHDESK_THREAD_NICE: '0' })).toBe(niceOf('self'));
  });

  it('are the import reader, the chunk writer and the checkpoint thread', () => {
    for (const source of [READ_WORKER_SOURCE, CHUNK_THREAD_SOURCE, CHECKPOINT_SOURCE]) expect(source.startsWith(GIVE_WAY_TO_ENGINE_THREAD)).toBe(true);
  });
});
