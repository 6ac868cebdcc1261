// The OS keychain behind one small interface. Keys never go to SQLite, logs or the window.
import type { AsyncEntry } from '@napi-rs/keyring';

export interface SecretStore {
  set(account: string, secret: string): Promise<void>;
  get(account: string): Promise<string | null>;
  delete(account: string): Promise<boolean>;
}

export class KeychainUnavailableError extends Error {}

export const KEYCHAIN_SERVICE = 'batchdesk';

export class KeychainStore implements SecretStore {
  constructor(private readonly service = KEYCHAIN_SERVICE) {}

  private async entry(account: string): Promise<AsyncEntry> {
    // Loaded at the first key looked up, not at start-up: keys given in the environment (and
    // commands that need none) never load the native keychain module.
    const { AsyncEntry } = await import('@napi-rs/keyring');
    // On Linux, pin the Secret Service: the kernel keyring fallback forgets keys at reboot,
    // which would silently lose a user's key. Better to refuse and say why.
    return new AsyncEntry(this.service, account, { linux: { store: 'secret-service' } });
  }

  async set(account: string, secret: string): Promise<void> {
    try {
      await (await this.entry(account)).setPassword(secret);
    } catch (e) {
      throw unavailable(e);
    }
  }

  async get(account: string): Promise<string | null> {
    try {
      return await (await this.entry(account)).getPassword();
    } catch (e) {
      throw unavailable(e);
    }
  }

  async delete(account: string): Promise<boolean> {
    try {
      return await (await this.entry(account)).deleteCredential();
    } catch (e) {
      throw unavailable(e);
    }
  }
}

function unavailable(e: unknown): KeychainUnavailableError {
  const detail = e instanceof Error ? e.message : String(e);
  const hint =
    process.platform === 'linux'
      ? 'On Linux a Secret Service (GNOME Keyring or KWallet) must be running and unlocked in your session.'
      : 'Unlock the system keychain and try again.';
  return new KeychainUnavailableError(
    `The OS keychain is not available (${detail}). ${hint} Keys are never stored elsewhere; for headless use set BATCHDESK_API_KEY / BATCHDESK_CHANNEL_KEY instead.`,
  );
}
