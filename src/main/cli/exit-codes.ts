// Exit codes are part of the CLI's contract (docs/troubleshooting.md): scripts branch on them.
export const EXIT = {
  ok: 0,
  someFailed: 1,
  usage: 2,
  paused: 3,
  /** Could not start or continue: data folder busy, damaged or full; keychain unavailable. */
  cannotRun: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class UsageError extends Error {}
