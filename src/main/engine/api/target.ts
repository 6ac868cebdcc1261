// Which API the engine talks to, and how it obtains the key for each kind of route.
import type { Credential } from './request';

export interface ApiTarget {
  baseUrl: string;
  /** True for the built-in sandbox: results are not real and nothing reaches a customer. */
  sandbox: boolean;
  /** The default key of a kind, or (keyId) the stored key a batch was created for. */
  resolveKey(kind: Credential, keyId?: string | null): Promise<ResolvedKey | null>;
}

/** A key as the engine sends with it (secrets/key-manager.ts finds it). */
export interface ResolvedKey {
  secret: string;
  /** What attempts and the window show: never the secret. */
  label: string;
  source: 'env' | 'keychain' | 'sandbox';
  /** The stored key's id (`kind:label`), null for the environment or the sandbox's own key. */
  id: string | null;
  /** Its own request limit per minute; null: the general setting. */
  rpm: number | null;
  /**
   * The base URL of the API this key belongs to (`keys add --api-url`), where its requests go
   * whatever API the run targets; null: the run's API (api/destination.ts: sendTargetOf).
   */
  baseUrl: string | null;
}
