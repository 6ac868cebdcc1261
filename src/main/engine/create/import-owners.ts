// Who made an import, and whether they still live: an unfinished import whose process is gone
// was seen by nobody and is removed by the next create (discard-imports.ts).
import { hostname } from 'node:os';

/** Imports running in this process (the window may create two batches at once). */
const importsHere = new Set<string>();

/** Marks an import as this process's own while it runs. */
export function importingHere(id: string): void {
  importsHere.add(id);
}

/** The import is over here (sealed or deleted): from now on only its creator tag speaks for it. */
export function importDoneHere(id: string): void {
  importsHere.delete(id);
}

/** "host pid": what a batch's creator (or a team's worker) is recorded as. */
export function creatorTag(): string {
  return `${hostname()} ${process.pid}`;
}

/** False only when the import's process is known to be gone: this machine, no such process. */
export function creatorAlive(id: string, tag: string | null): boolean {
  const m = tag === null ? null : /^(.*) (\d+)$/.exec(tag);
  if (m === null) return false;
  if (Number(m[2]) === process.pid && m[1] === hostname()) return importsHere.has(id);
  return workerAlive(tag ?? '');
}

/** False only when a "host pid" is known to be gone: this machine, no such process. */
export function workerAlive(tag: string): boolean {
  const m = /^(.*) (\d+)$/.exec(tag);
  if (m === null) return true;
  if (m[1] !== hostname()) return true; // another machine's: not ours to judge
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
