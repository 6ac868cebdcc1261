// What a batch made in the window cannot be when it goes to the team's shared store: one rule,
// shown by New batch before Start (renderer) and enforced by the host (service/team-view.ts).
import type { BatchCapability } from './domain';
import { describe } from './capabilities/catalog';

/** Why a batch of `capability` cannot go to the team (null: it can); `chained`: a pipeline or a follow-up. */
export function teamBatchRefusal(capability: BatchCapability, chained: boolean): string | null {
  if (chained) return 'Pipelines and follow-ups run on one computer: send them from this computer, or create each step for the team on its own.';
  if (describe(capability).input.kind === 'files') {
    return `${describe(capability).label} reads files, which every worker must find at the same path, and files dropped in the window stay in this computer's data folder. Send it from this computer, or create it for the team from a shared folder with \`batchdesk batch create ${capability} FOLDER --store URL\`.`;
  }
  return null;
}
