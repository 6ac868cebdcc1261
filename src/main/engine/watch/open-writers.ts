// Is a file still held open for writing by some process? A writer that keeps a WAV's header
// consistent after every piece, and pauses longer than the quiet time, makes a file that looks
// whole by its format and by its size; only its open descriptor says it is not done. Linux: the
// /proc/<pid>/fd links and /proc/<pid>/fdinfo flags of the processes this user may look at
// (its own; all for root). macOS: `lsof`. Elsewhere (Windows) there is no such check, and the
// growth rule of folder-watcher.ts is what holds such a file back.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { basename } from 'node:path';

export interface OpenWriter {
  pid: number;
  /** The program's name: its command line's first word on Linux, lsof's command on macOS. */
  command: string;
}

export type WriterCheck =
  | { kind: 'none' }
  | { kind: 'open'; writer: OpenWriter }
  /** This system cannot tell (no /proc, no lsof, Windows), or the look failed. */
  | { kind: 'unknown' };

/** Which of `paths` (real paths) some process holds open for writing, and which process. */
export type WriterScan = (paths: ReadonlySet<string>) => Promise<Map<string, OpenWriter>>;

export interface OpenWriters {
  check(path: string): Promise<WriterCheck>;
}

/**
 * One scan at a time for every file asked about: files asked while a scan runs wait for the
 * next one (which starts after they were asked, so it sees a writer that opened them before).
 * Files that become ready together (a folder copied in) cost one scan, not one each.
 */
export class CoalescedWriters implements OpenWriters {
  private waiting = new Map<string, ((r: WriterCheck) => void)[]>();
  private running = false;
  /** Scans made: the tests count them. */
  scans = 0;

  constructor(private readonly scan: WriterScan) {}

  async check(path: string): Promise<WriterCheck> {
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return { kind: 'unknown' }; // gone or unreadable: the watcher's own look says so
    }
    return new Promise((resolve) => {
      const list = this.waiting.get(real) ?? [];
      list.push(resolve);
      this.waiting.set(real, list);
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.size > 0) {
        const asked = this.waiting;
        this.waiting = new Map();
        this.scans++;
        let found: Map<string, OpenWriter> | null;
        try {
          found = await this.scan(new Set(asked.keys()));
        } catch {
          found = null;
        }
        for (const [path, resolvers] of asked) {
          const writer = found?.get(path);
          const r: WriterCheck = found === null ? { kind: 'unknown' } : writer ? { kind: 'open', writer } : { kind: 'none' };
          for (const resolve of resolvers) resolve(r);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/** O_ACCMODE of an fdinfo "flags:" line (octal): 1 is O_WRONLY, 2 is O_RDWR. */
function writable(fdinfo: string): boolean {
  const m = /^flags:\s*([0-7]+)$/m.exec(fdinfo);
  return m !== null && (parseInt(m[1] ?? '0', 8) & 3) !== 0;
}

/** The program as a user knows it: comm is a thread's name, which Node, for one, sets to "MainThread". */
function commandOf(dir: string): string {
  const first = readFileSync(`${dir}/cmdline`, 'utf8').split('\0')[0] ?? '';
  return basename(first) || readFileSync(`${dir}/comm`, 'utf8').trim();
}

/** Processes looked at between two turns of the event loop: the scan never holds it for long. */
const PROCESSES_PER_TURN = 16;

/** A file as the kernel knows it, whatever name or mount it is reached by. */
function fileKey(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

/**
 * Linux: every process's open descriptors (those this user may read), matched by device and inode,
 * not by name: a writer may hold the file under another name (a hard link) or through another
 * mount (a container's bind-mounted volume), where its descriptor's link names another path.
 */
export function procScan(proc = '/proc'): WriterScan {
  return async (paths) => {
    const found = new Map<string, OpenWriter>();
    const wanted = new Map<string, string>();
    for (const p of paths) {
      const key = fileKey(p);
      if (key !== null) wanted.set(key, p);
    }
    const pids = (await readdir(proc)).filter((n) => /^\d+$/.test(n));
    for (const [i, pid] of pids.entries()) {
      if (found.size === paths.size) break;
      if (i > 0 && i % PROCESSES_PER_TURN === 0) await new Promise((r) => setImmediate(r));
      let fds: string[];
      try {
        fds = readdirSync(`${proc}/${pid}/fd`);
      } catch {
        continue; // another user's process, or gone
      }
      for (const fd of fds) {
        let target: string;
        try {
          target = readlinkSync(`${proc}/${pid}/fd/${fd}`);
        } catch {
          continue; // closed meanwhile
        }
        // Sockets, pipes and anonymous inodes ("socket:[123]") are no file's: no stat for them.
        if (!target.startsWith('/')) continue;
        const path = paths.has(target) ? target : wanted.get(fileKey(`${proc}/${pid}/fd/${fd}`) ?? '');
        if (path === undefined || found.has(path)) continue;
        try {
          if (!writable(readFileSync(`${proc}/${pid}/fdinfo/${fd}`, 'latin1'))) continue;
          found.set(path, { pid: Number(pid), command: commandOf(`${proc}/${pid}`) });
        } catch {
          continue;
        }
      }
    }
    return found;
  };
}

/** `lsof -F pcan` output: the files among `paths` open with access w (write) or u (read and write). */
export function parseLsof(out: string, paths: ReadonlySet<string>): Map<string, OpenWriter> {
  const found = new Map<string, OpenWriter>();
  let pid = 0;
  let command = '';
  let access = '';
  for (const line of out.split('\n')) {
    const field = line.slice(0, 1);
    const value = line.slice(1);
    if (field === 'p') {
      pid = Number(value);
      command = '';
      access = '';
    } else if (field === 'c') command = value;
    else if (field === 'f') access = '';
    else if (field === 'a') access = value;
    else if (field === 'n' && (access === 'w' || access === 'u') && paths.has(value) && !found.has(value)) found.set(value, { pid, command });
  }
  return found;
}

const LSOF_TIMEOUT_MS = 10_000;

/** macOS (and any system with lsof): one lsof for every path asked. */
export function lsofScan(): WriterScan {
  return async (paths) => {
    // Loaded here, on macOS's first look: at load it cost every command about 11 ms.
    const { execFile } = await import('node:child_process');
    return new Promise((resolve, reject) => {
      execFile('lsof', ['-w', '-F', 'pcan', '--', ...paths], { timeout: LSOF_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (e, stdout) => {
        // lsof exits with 1 when none of the files is open: that is an answer, not a failure.
        const code = e && 'code' in e ? e.code : 0;
        if (e && code !== 1) return reject(e);
        resolve(parseLsof(stdout, paths));
      });
    });
  };
}

const cannotTell: OpenWriters = { check: () => Promise.resolve({ kind: 'unknown' }) };

/** The check for this OS: /proc on Linux, lsof on macOS, none elsewhere. */
export function openWritersFor(platform: NodeJS.Platform): OpenWriters {
  if (platform === 'linux') return new CoalescedWriters(procScan());
  if (platform === 'darwin') return new CoalescedWriters(lsofScan());
  return cannotTell;
}

let here: OpenWriters | null = null;

/** One check per process, shared by every watched folder, so their scans coalesce. */
export function openWritersHere(): OpenWriters {
  return (here ??= openWritersFor(process.platform));
}
