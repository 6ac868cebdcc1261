// Key metadata (label, client, base URL, last four characters) in SQLite; the secret itself
// only in the keychain. Environment variables override for headless use.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { SecretStore } from './secret-store';
import type { Credential } from '../api/request';

export interface KeyInfo {
  id: string;
  kind: Credential;
  label: string;
  client: string | null;
  base_url: string | null;
  last4: string;
  created_at: number;
  active: boolean;
}

export interface ResolvedKey {
  secret: string;
  /** What attempts and the window show: never the secret. */
  label: string;
  source: 'env' | 'keychain' | 'sandbox';
}

export const ENV_VAR: Record<Credential, string> = { api: 'BATCHDESK_API_KEY', channel: 'BATCHDESK_CHANNEL_KEY' };

export function last4(secret: string): string {
  return secret.slice(-4);
}

export class KeyManager {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Adds or replaces a key and makes it the active one of its kind. Secret first: no orphan metadata. */
  async add(input: { kind: Credential; label: string; secret: string; client: string | null; baseUrl: string | null }): Promise<KeyInfo> {
    const secret = input.secret.trim();
    if (secret.length < 8) throw new Error('That key is too short to be real (under 8 characters); paste the whole key.');
    if (/\s/.test(secret)) throw new Error('The key contains whitespace; paste it exactly as the panel shows it.');
    if (!/^[\w.@-]{1,64}$/.test(input.label)) throw new Error('Labels use letters, digits, ".", "_", "-" or "@" (at most 64).');
    const id = `${input.kind}:${input.label}`;
    await this.store.set(id, secret);
    this.db.transaction(() => {
      this.db.prepare(`UPDATE keys SET active = 0 WHERE kind = ?`).run(input.kind);
      this.db
        .prepare(
          `INSERT INTO keys (id, kind, label, client, base_url, last4, created_at, active) VALUES (@id, @kind, @label, @client, @base, @last4, @now, 1)
           ON CONFLICT (id) DO UPDATE SET client = excluded.client, base_url = excluded.base_url, last4 = excluded.last4, created_at = excluded.created_at, active = 1`,
        )
        .run({ id, kind: input.kind, label: input.label, client: input.client, base: input.baseUrl, last4: last4(secret), now: this.clock.now() });
    })();
    const info = this.get(id);
    if (!info) throw new Error('key metadata vanished');
    return info;
  }

  list(): KeyInfo[] {
    return (this.db.prepare(`SELECT * FROM keys ORDER BY kind, label`).all() as (Omit<KeyInfo, 'active'> & { active: number })[]).map((r) => ({
      ...r,
      active: r.active === 1,
    }));
  }

  get(id: string): KeyInfo | undefined {
    return this.list().find((k) => k.id === id);
  }

  find(labelOrId: string): KeyInfo[] {
    return this.list().filter((k) => k.id === labelOrId || k.label === labelOrId);
  }

  async remove(id: string): Promise<void> {
    await this.store.delete(id);
    this.db.prepare(`DELETE FROM keys WHERE id = ?`).run(id);
  }

  active(kind: Credential): KeyInfo | undefined {
    return this.list().find((k) => k.kind === kind && k.active);
  }

  /** The key to send: environment first (headless), then the active keychain key. */
  async resolve(kind: Credential): Promise<ResolvedKey | null> {
    const fromEnv = this.env[ENV_VAR[kind]];
    if (fromEnv && fromEnv.trim()) return { secret: fromEnv.trim(), label: `${ENV_VAR[kind]} …${last4(fromEnv.trim())}`, source: 'env' };
    const info = this.active(kind);
    if (!info) return null;
    const secret = await this.store.get(info.id);
    if (secret === null) return null;
    return { secret, label: `${info.label} …${info.last4}`, source: 'keychain' };
  }
}
