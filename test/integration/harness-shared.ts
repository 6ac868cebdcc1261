// The parts of the harness that do not need vitest, so a child process can use them too.
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';

/** Keys come from the environment in these tests: any keychain access is a test failure. */
export const noKeychain: SecretStore = {
  set: () => Promise.reject(new Error('keychain must not be used in integration tests (set)')),
  get: () => Promise.reject(new Error('keychain must not be used in integration tests (get)')),
  delete: () => Promise.reject(new Error('keychain must not be used in integration tests (delete)')),
};

export const TEST_CONFIG: RunnerConfig = {
  backoff: { baseMs: 5, capMs: 50, maxTries: 4 },
  leaseMs: 60_000,
  gate: { concurrency: 4, rpm: null },
  idleTimeoutMs: 10_000,
  deadline: { baseMs: 30_000, uploadBytesPerSecond: 1024 * 1024 },
  serverWait: { minMs: 5, inlineMaxMs: 5 * 60_000, maxMs: 24 * 60 * 60_000, rateLimitedBudget: 20, rateLimitedCapMs: 50 },
  slowAnswerMs: 10_000,
  minRate: { bytesPerSecond: 256, windowMs: 20_000 },
  waitBudgetMs: 10 * 60_000,
};
