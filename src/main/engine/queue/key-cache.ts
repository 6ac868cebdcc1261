// The keys a run sends with, resolved once per run (a replaced key is picked up by the next run,
// or at once after the API refused one), and each key's limits: its own request limit (set for
// it, read live) over the general setting. Shared by the local runner and a team worker.
import type { Credential } from '../api/request';
import type { ApiTarget } from '../api/target';
import type { ResolvedKey } from '../secrets/key-manager';
import type { GateLimits } from './rate-gate';

export class KeyCache {
  /** `kind|` for a kind's default, `kind|<key id>` for a batch's chosen key. */
  private readonly keys = new Map<string, ResolvedKey | null>();

  constructor(private readonly target: ApiTarget) {}

  async get(kind: Credential, keyId: string | null): Promise<ResolvedKey | null> {
    const slot = `${kind}|${keyId ?? ''}`;
    if (!this.keys.has(slot)) this.keys.set(slot, await this.target.resolveKey(kind, keyId));
    return this.keys.get(slot) ?? null;
  }

  clear(): void {
    this.keys.clear();
  }

  /** Reads this one key again at its next use; the others (and their secrets, for redaction) stay. */
  forget(kind: Credential, keyId: string | null): void {
    this.keys.delete(`${kind}|${keyId ?? ''}`);
  }

  /** Every secret this run knows: none of them may be copied from a server's text into storage. */
  secrets(): string[] {
    const out: string[] = [];
    for (const k of this.keys.values()) if (k) out.push(k.secret);
    return out;
  }
}

export function keyLimits(key: ResolvedKey, config: { gate: GateLimits; keyRpm?: ReadonlyMap<string, number | null> | undefined }): GateLimits {
  const own = key.id === null ? undefined : config.keyRpm?.get(key.id);
  const rpm = own !== undefined ? own : key.rpm;
  return rpm === null ? config.gate : { ...config.gate, rpm };
}
