// The reason a batch paused by the user shows (status, the window, a worker's output): what
// happened and how to go on, as every other pause says it.

/** `resume`: the command that continues it here (`batchdesk resume ID`, with --store URL for a team's batch). */
export function userPauseReason(resume: string): string {
  return `Paused by the user. \`${resume}\` (or Resume in the window) continues it; nothing is sent twice.`;
}
