// Words for the engine's codes: job states, batch statuses, pause kinds (capabilities name
// themselves in their descriptors, src/shared/capabilities/catalog.ts).
import type { DisplayBatchStatus, JobState, PauseKind, Tier } from '../../../shared/domain';

export const STATE_LABEL: Record<JobState, string> = {
  queued: 'Queued',
  running: 'Running',
  retry_wait: 'Waiting to retry',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const STATUS_LABEL: Record<DisplayBatchStatus, string> = {
  pending: 'Not started',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  done: 'Done',
  done_with_failures: 'Done with failures',
};

export const PAUSE_LABEL: Record<PauseKind, string> = {
  user: 'Paused by you.',
  auth: 'Paused: the API refused the key (revoked, wrong or of the wrong kind).',
  quota: "Paused: the key's spending cap is reached.",
  budget: "Paused: the next item would cross this batch's budget.",
  no_key: 'Paused: no key is set for this kind of request.',
  server_wait: 'Paused: the API asked to wait.',
  rate_limited: 'Paused: the API keeps refusing with 429 (request limit).',
  sample: 'Paused after the sample: check the results and the projected cost, then resume to send the rest.',
  api: 'Paused: its first items went to another API than the one set now. Set that API again (Keys & rates, Settings) and it goes on by itself, or resume it with "Send the rest to the API set now".',
};

/** "audio seconds" -> "audio second", for "per audio second". */
export function unitSingular(plural: string): string {
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

export function formatUnits(n: number, plural: string): string {
  const rounded = Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return `${rounded} ${n === 1 ? unitSingular(plural) : plural}`;
}

/** The last path segment, for either separator. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

/** How a tier is named in the window. */
export const TIER_LABEL: Record<Tier, string> = { basic: 'Basic', standard: 'Standard', superior: 'Superior' };
