// Only one process runs jobs from a data folder at a time. Holding this lock is what lets
// start-up recovery treat every "running" job as orphaned by a crash.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class EngineBusyError extends Error {}

/** Lock files this process holds: the desktop shell and the browser host share one process. */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class EngineLock {
  private constructor(private readonly file: string) {}

  static acquire(dataDir: string): EngineLock {
    const file = join(dataDir, 'engine.lock');
    for (let i = 0; i < 2; i++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        heldHere.add(file);
        return new EngineLock(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(readFileSync(file, 'utf8').trim());
        const ours = pid === process.pid;
        if ((ours && heldHere.has(file)) || (!ours && Number.isInteger(pid) && pid > 0 && alive(pid))) {
          throw new EngineBusyError(
            `Another Batchdesk${ours ? ' engine in this process' : ` (process ${pid})`} is running batches from ${dataDir}. Let it finish or stop it, or use another --data-dir.`,
          );
        }
        unlinkSync(file); // stale: its owner is gone
      }
    }
    throw new EngineBusyError(`Could not take the engine lock in ${dataDir}.`);
  }

  release(): void {
    heldHere.delete(this.file);
    try {
      if (readFileSync(this.file, 'utf8').trim() === String(process.pid)) unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}
