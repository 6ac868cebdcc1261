// Small key/value settings stored beside the jobs.
import type { Db } from './db/connection';

export class Settings {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      set: db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
      delete: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  get(key: string): string | null {
    const row = this.stmts.get.get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  set(key: string, value: string): void {
    this.stmts.set.run(key, value);
  }

  delete(key: string): void {
    this.stmts.delete.run(key);
  }
}
