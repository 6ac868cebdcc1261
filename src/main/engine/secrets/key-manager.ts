// Key metadata (label, client, base URL, last four characters) in SQLite; the secret itself
// only in the keychain. Environment variables override for headless use.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { SecretStore } from './secret-store';
import type { Credential } from '../api/request';
import type { ResolvedKey } from '../api/target';

// Defined beside ApiTarget, which hands it out, so that the api floor needs nothing from secrets.
export type { ResolvedKey };
import { checkApiUrl, KEY_API_URL_HINT } from '../../../shared/settings-rules';
import { UserError } from '../user-error';

export interface KeyInfo {
  id: string;
  kind: Credential;
  label: string;
  client: string | null;
  base_url: string | null;
  last4: string;
  created_at: number;
  active: boolean;
  /** The key's own request limit per minute (the API's limit for it); null: the general setting. */
  rpm: number | null;
}

const LABEL = /^[\w.@-]{1,64}$/;

export const ENV_VAR: Record<Credential, string> = { api: 'BATCHDESK_API_KEY', channel: 'BATCHDESK_CHANNEL_KEY' };

export function last4(secret: string): string {
  return secret.slice(-4);
}

export class KeyManager {
  private readonly limitsStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    // Read on every dispatch pass (a limit changed while running applies at once): prepared once.
    this.limitsStmt = db.prepare(`SELECT id, rpm FROM keys`);
  }

  /** Each stored key's own request limit (null: the general setting). */
  limits(): Map<string, number | null> {
    return new Map((this.limitsStmt.all() as { id: string; rpm: number | null }[]).map((r) => [r.id, r.rpm]));
  }

  /** Adds or replaces a key and makes it the active one of its kind. Secret first: no orphan metadata. */
  async add(input: { kind: Credential; label: string; secret: string; client: string | null; baseUrl: string | null; rpm?: number | null }): Promise<KeyInfo> {
    const secret = input.secret.trim();
    if (secret.length < 8)
      throw new UserError('That key is too short to be real (under 8 characters); paste the whole key.', { code: 'key_refused', why: 'too_short' });
    if (/\s/.test(secret))
      throw new UserError('The key contains whitespace; paste it exactly as the panel shows it.', { code: 'key_refused', why: 'whitespace' });
    if (!LABEL.test(input.label)) throw new UserError('Labels use letters, digits, ".", "_", "-" or "@" (at most 64).', { code: 'key_refused', why: 'label' });
    // Checked here, where every face adds keys: the key's requests are sent to this address.
    const base = input.baseUrl === null ? null : checkApiUrl(input.baseUrl.trim(), KEY_API_URL_HINT);
    if (base !== null && !base.ok)
      throw new UserError(`The key was not stored: its --api-url is not usable. ${base.message}`, { code: 'key_refused', why: 'api_url' });
    const id = `${input.kind}:${input.label}`;
    await this.store.set(id, secret);
    this.db.transaction(() => {
      this.db.prepare(`UPDATE keys SET active = 0 WHERE kind = ?`).run(input.kind);
      this.db
        .prepare(
          `INSERT INTO keys (id, kind, label, client, base_url, last4, created_at, active, rpm) VALUES (@id, @kind, @label, @client, @base, @last4, @now, 1, @rpm)
           ON CONFLICT (id) DO UPDATE SET client = excluded.client, base_url = excluded.base_url, last4 = excluded.last4, created_at = excluded.created_at, active = 1,
             rpm = CASE WHEN @keepRpm = 1 THEN keys.rpm ELSE excluded.rpm END`,
        )
        .run({
          id,
          kind: input.kind,
          label: input.label,
          client: input.client,
          base: base === null ? null : base.url,
          last4: last4(secret),
          now: this.clock.now(),
          rpm: input.rpm ?? null,
          // A replaced secret keeps the limit set for the key unless a new one is given.
          keepRpm: input.rpm === undefined ? 1 : 0,
        });
    })();
    const info = this.get(id);
    if (!info) throw new Error('key metadata vanished');
    return info;
  }

  /** Changes what is known about a stored key: its client, its request limit, or makes it the default of its kind. */
  update(id: string, patch: { client?: string | null; rpm?: number | null; makeDefault?: boolean }): KeyInfo {
    const before = this.get(id);
    if (!before) throw new Error(`No stored key ${id}.`);
    this.db.transaction(() => {
      if (patch.client !== undefined) this.db.prepare(`UPDATE keys SET client = ? WHERE id = ?`).run(patch.client, id);
      if (patch.rpm !== undefined) this.db.prepare(`UPDATE keys SET rpm = ? WHERE id = ?`).run(patch.rpm, id);
      if (patch.makeDefault) {
        this.db.prepare(`UPDATE keys SET active = 0 WHERE kind = ?`).run(before.kind);
        this.db.prepare(`UPDATE keys SET active = 1 WHERE id = ?`).run(id);
      }
    })();
    const after = this.get(id);
    if (!after) throw new Error('key metadata vanished');
    return after;
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
    if (fromEnv && fromEnv.trim())
      return { secret: fromEnv.trim(), label: `${ENV_VAR[kind]} …${last4(fromEnv.trim())}`, source: 'env', id: null, rpm: null, baseUrl: null };
    const info = this.active(kind);
    return info ? this.resolveStored(info) : null;
  }

  /** A batch created for a particular key sends with that key, whatever the default is. */
  async resolveId(id: string): Promise<ResolvedKey | null> {
    const info = this.get(id);
    return info ? this.resolveStored(info) : null;
  }

  /** The key a batch without a chosen one is bound to: the default stored key, unless the environment's key overrides it. */
  defaultKey(kind: Credential): { id: string | null; client: string | null } {
    if (this.env[ENV_VAR[kind]]?.trim()) return { id: null, client: null };
    const info = this.active(kind);
    return info ? { id: info.id, client: info.client } : { id: null, client: null };
  }

  private async resolveStored(info: KeyInfo): Promise<ResolvedKey | null> {
    const secret = await this.store.get(info.id);
    if (secret === null) return null;
    return { secret, label: `${info.label} …${info.last4}`, source: 'keychain', id: info.id, rpm: info.rpm, baseUrl: ownBaseUrl(info) };
  }
}

/**
 * A stored key's own API address as its requests use it (normalised as the run's is), or null.
 * One stored before addresses were checked at `keys add` and unusable now is refused with what to do,
 * never sent elsewhere instead (the runner pauses its batches with these words).
 */
function ownBaseUrl(info: KeyInfo): string | null {
  if (info.base_url === null) return null;
  const checked = checkApiUrl(info.base_url, KEY_API_URL_HINT);
  if (checked.ok) return checked.url;
  const what = info.kind === 'channel' ? 'channel key' : 'API key';
  throw new UserError(
    `The ${what} "${info.label}" (…${info.last4}) was stored with an API address that cannot be used. ${checked.message} Store it again with its API's base URL: \`batchdesk keys add --kind ${info.kind} --label ${info.label} --api-url URL\` (in the window: Keys & rates).`,
    { code: 'key_address_unusable', label: info.label, credential: info.kind },
  );
}
