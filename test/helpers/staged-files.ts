// Files a test drops into a watched folder as finished files arrive: made before the watcher starts
// and renamed in when dropped. A rename keeps the birth time, so the watcher sees a file brought in
// whole and takes it after the short quiet time; a PDF or WAV written in place moments before it
// is seen waits the long one (folder-watcher.ts), which a test not about partial writes need not.
import { mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './wait-for';

export class StagedFiles {
  private n = 0;
  private lastMadeAt = 0;
  private readonly copies = new Map<string, string[]>();

  /** `dir` must be on the watched folder's file system and outside it (or hidden in it). */
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Makes `count` copies of the file `key` (or of `bytes`, named `key`) to drop later. */
  stage(key: string, count = 1, bytes?: Buffer | string): this {
    const content = bytes ?? readFileSync(key);
    const list = this.copies.get(key) ?? [];
    for (let i = 0; i < count; i++) {
      const path = join(this.dir, `staged-${this.n++}`);
      writeFileSync(path, content);
      // Each its own modification time, as files written at different moments have: two versions
      // of one size and time would count as one already judged (take-file.ts).
      const at = new Date(Date.now() - 60_000 + this.n);
      utimesSync(path, at, at);
      list.push(path);
    }
    this.copies.set(key, list);
    this.lastMadeAt = Date.now();
    return this;
  }

  /**
   * Waits until every staged file was made more than `ms` before now: call it with the watcher's
   * quiet time before starting the watcher, so that its files count as made before it started.
   */
  async aged(ms: number): Promise<void> {
    const left = this.lastMadeAt + ms + 20 - Date.now();
    if (left > 0) await sleep(left);
  }

  /** Renames a staged copy of `key` to `dest`, as a finished file is moved in. */
  drop(key: string, dest: string): void {
    const path = this.copies.get(key)?.shift();
    if (path === undefined) throw new Error(`nothing staged for ${key}: stage it before the watcher starts`);
    renameSync(path, dest);
  }
}
