// Which API the engine talks to, and how it obtains the key for each kind of route.
import type { Credential } from './request';
import type { ResolvedKey } from '../secrets/key-manager';

export interface ApiTarget {
  baseUrl: string;
  /** True for the built-in sandbox: results are not real and nothing reaches a customer. */
  sandbox: boolean;
  /** The default key of a kind, or (keyId) the stored key a batch was created for. */
  resolveKey(kind: Credential, keyId?: string | null): Promise<ResolvedKey | null>;
}
