// A keychain with no keys that refuses to store one: for services started in tests (the host, the
// desktop handlers) that read keys but must take them from the environment or the sandbox.
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';

export const emptyKeychain: SecretStore = {
  set: () => Promise.reject(new Error('no keychain in this test')),
  get: () => Promise.resolve(null),
  delete: () => Promise.resolve(false),
};
