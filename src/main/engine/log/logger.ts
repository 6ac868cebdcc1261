// Structured JSON-lines log in the data folder, rotated by size. Callers pass ids, states and
// numbers only: never a key, a message body or a transcript.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../../../shared/redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
  close?(): void;
}

/** Debug lines held for the end of the turn are written at once past this size. */
const FLUSH_BYTES = 64 * 1024;

const FORBIDDEN_FIELDS = new Set(['key', 'secret', 'token', 'text', 'body', 'authorization', 'password']);

export class FileLogger implements Logger {
  private readonly file: string;
  private written = 0;
  /** Kept open: opening and closing the file for every line costs more than the line. */
  private fd: number | null = null;
  private pending: string[] = [];
  private pendingBytes = 0;
  private flushSoon: NodeJS.Immediate | null = null;

  constructor(
    dir: string,
    private readonly maxBytes = 5 * 1024 * 1024,
    private readonly keep = 5,
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'batchdesk.log');
    this.written = existsSync(this.file) ? statSync(this.file).size : 0;
  }

  log(level: LogLevel, event: string, fields: LogFields = {}): void {
    const clean: LogFields = {};
    for (const [k, v] of Object.entries(fields)) {
      // Defence in depth: even if a caller slips, secrets and bodies never reach the file.
      if (FORBIDDEN_FIELDS.has(k.toLowerCase())) continue;
      clean[k] = typeof v === 'string' ? redactSecrets(v) : v;
    }
    const line = `${JSON.stringify({ t: new Date().toISOString(), level, event, ...clean })}\n`;
    if (level === 'debug') {
      // A line per job sent (job.succeeded) was a write call per job: these are written together
      // at the end of the event-loop turn, and before any line of a higher level, in order.
      this.pending.push(line);
      this.pendingBytes += line.length;
      if (this.pendingBytes >= FLUSH_BYTES) this.flush();
      else this.flushSoon ??= setImmediate(() => this.flush());
      return;
    }
    this.flush();
    this.write(line);
  }

  /** Writes the debug lines held for the end of the turn. */
  flush(): void {
    if (this.flushSoon !== null) clearImmediate(this.flushSoon);
    this.flushSoon = null;
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    this.write(lines);
  }

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private write(text: string): void {
    try {
      if (this.written + text.length > this.maxBytes) this.rotate();
      this.fd ??= openSync(this.file, 'a');
      writeSync(this.fd, text);
      this.written += text.length;
    } catch {
      // A log line must never stop a batch (a full disk is reported by the database writes).
    }
  }

  private rotate(): void {
    this.close();
    const oldest = `${this.file}.${this.keep}`;
    if (existsSync(oldest)) unlinkSync(oldest);
    for (let i = this.keep - 1; i >= 1; i--) {
      const from = `${this.file}.${i}`;
      if (existsSync(from)) renameSync(from, `${this.file}.${i + 1}`);
    }
    if (existsSync(this.file)) renameSync(this.file, `${this.file}.1`);
    this.written = 0;
  }
}

export const nullLogger: Logger = { log: () => undefined };
