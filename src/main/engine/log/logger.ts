// Structured JSON-lines log in the data folder, rotated by size. Callers pass ids, states and
// numbers only: never a key, a message body or a transcript.
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
}

const SECRET_LIKE = /(bearer\s+\S+|sk_[a-z0-9_]+|bd_(?:api|ch)_[a-z0-9]+)/gi;
const FORBIDDEN_FIELDS = new Set(['key', 'secret', 'token', 'text', 'body', 'authorization', 'password']);

export class FileLogger implements Logger {
  private readonly file: string;
  private written = 0;

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
      clean[k] = typeof v === 'string' ? v.replace(SECRET_LIKE, '[redacted]') : v;
    }
    const line = `${JSON.stringify({ t: new Date().toISOString(), level, event, ...clean })}\n`;
    if (this.written + line.length > this.maxBytes) this.rotate();
    appendFileSync(this.file, line);
    this.written += line.length;
  }

  private rotate(): void {
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
