// A background thread's first lines: it gives way to the engine's own thread (issue 39).
// On two cores an import ran the engine's thread, the file reader's, the chunk writer's and the
// checkpoint's at once, beside the window's process: the engine's thread was ready to answer a
// window call but waited its turn on a core for up to 45-80 ms (late, not busy). Linux keeps a
// nice value per thread, and setpriority(PRIO_PROCESS, tid) with a thread id sets that thread's
// alone, so a background thread lowers its own and the scheduler runs the engine's thread as
// soon as it wakes. Only lowered, never raised: no privilege is needed, and a thread that cannot
// (another OS, no /proc) runs as before. On macOS and Windows Node has no per-thread priority.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The nice value of background threads: low enough that a waking engine thread preempts them. */
export const BACKGROUND_NICE = 15;

/** The same, for a thread with a module of its own (create/import-thread.ts). */
export function giveWayToEngineThread(): void {
  if (process.platform !== 'linux' || process.env.BATCHDESK_THREAD_NICE === '0') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && getPriority(tid) < BACKGROUND_NICE) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // No /proc or not allowed: the thread runs at the process's priority.
  }
}

/**
 * JavaScript for the top of a worker's `eval` source (plain CommonJS, like the sources it joins).
 * BATCHDESK_THREAD_NICE=0 leaves the threads as they were (the bench's A/B).
 */
export const GIVE_WAY_TO_ENGINE_THREAD = `
(() => {
  if (process.platform !== 'linux' || process.env.BATCHDESK_THREAD_NICE === '0') return;
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    const os = require('node:os');
    // Never raised: a process started nicer than this (as root could be) keeps its own.
    if (Number.isInteger(tid) && tid > 0 && os.getPriority(tid) < ${BACKGROUND_NICE}) os.setPriority(tid, ${BACKGROUND_NICE});
  } catch {
    // No /proc or not allowed: the thread runs at the process's priority.
  }
})();
`;
