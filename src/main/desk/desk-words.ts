// The sentence parts a command's output takes from its desk: who a change reaches, who starts a
// batch, where it is kept. Written once per store here, so the commands never ask which store.
import type { Resumed } from '../engine/control/resume';
import { shortBudgetWords } from '../engine/pipeline/budget-floor';
import { destinationWords, runCommandFor } from '../engine/api/destination';

/** What `resume` learned, for its sentences. */
export interface ResumeTold extends Resumed {
  id: string;
  /** " (with every step of its pipeline: …)" or "". */
  also: string;
  /** The API the batch was sent to before (null: not sent yet). */
  sentTo: string | null;
  switchApi: boolean;
  /** A budget was given with the resume. */
  budgetGiven: boolean;
}

export interface DeskWords {
  /** Who a pause or cancel reaches: " for every worker" on a team's store, "" on this computer's. */
  forEveryone: string;
  /** " in <where the store is>" after "Created batch ID" or "No batches yet"; "" on the data folder. */
  inStore: string;
  /** " (<where the store is>)" after a batch read from a team's store; "" on the data folder. */
  fromStore: string;
  /** The heading of the spend report: "Spent by the team, <store>:\n", or "". */
  spentHeading: string;
  /** Where `batchdesk run ID` may be typed: "" (this computer), " (on any worker of the team)". */
  startsOn: string;
  /** A verb lists every step of a batch's pipeline after it (a team's batch is shown alone: `status --store` lists its steps). */
  stepsListed: boolean;
  /** Who starts a batch scheduled for later, when its time comes. */
  scheduledStarter(id: string): string;
  /** What happens next after `schedule`: started now (`now`), time removed (`at` null), or a new time. */
  afterSchedule(id: string, now: boolean, at: number | null): string;
  /** The lines `resume` prints, each ending in a newline. */
  resumed(r: ResumeTold): string[];
}

export const LOCAL_WORDS: DeskWords = {
  forEveryone: '',
  inStore: '',
  fromStore: '',
  spentHeading: '',
  startsOn: '',
  stepsListed: true,
  scheduledStarter: (id) =>
    `a Batchdesk running then (the window, the browser host, \`batchdesk run --watch\`, or \`batchdesk run ${id}\`, which waits for it) starts it, or the first one started after.`,
  afterSchedule: (id, now, at) =>
    now
      ? `Started: a Batchdesk that is running sends it now; otherwise \`batchdesk run ${id}\`.\n`
      : at === null
        ? `No start time any more: the batch waits for its start (\`batchdesk run ${id}\`, or Start in the window).\n`
        : `It starts by itself then, in whichever Batchdesk is running (or the first one started after).\n`,
  resumed: (r) => {
    const forgot =
      r.switchApi && r.sentTo !== null ? ` It no longer keeps to ${destinationWords(r.sentTo)}: its next run sends the rest wherever that run sends.` : '';
    // Paused by its budget, and that budget still below what is left: it pauses again at the next
    // item that does not fit, so the amount that covers the rest is named in place of the run.
    const next = r.short ? ` ${shortBudgetWords(r.id, r.short, false)}` : ` Run \`${runCommandFor(r.id, r.switchApi ? null : r.sentTo)}\` to continue sending.`;
    return [r.resumed ? `Resumed ${r.id}${r.also}.${forgot}${next}\n` : `${r.id} was not paused${r.budgetGiven ? ' (budget updated)' : ''}.${forgot}\n`];
  },
};

/** The words of a team's store; `description` names it ("the shared store postgresql://…"). */
export function teamWords(description: string): DeskWords {
  return {
    forEveryone: ' for every worker',
    inStore: ` in ${description}`,
    fromStore: ` (${description})`,
    spentHeading: `Spent by the team, ${description}:\n`,
    startsOn: ' (on any worker of the team)',
    stepsListed: false,
    scheduledStarter: (id) =>
      `a worker of the team running then (\`batchdesk run --watch --store URL\`, or \`batchdesk run ${id} --store URL\`, which waits for it) starts it, or the first one started after.`,
    afterSchedule: (id, now, at) =>
      now
        ? `Started: the team's workers send it (\`batchdesk run --store URL\` on a worker that is not running yet).\n`
        : at === null
          ? `No start time any more: the batch waits for its start (\`batchdesk run ${id} --store URL\`).\n`
          : `A worker of the team running then starts it (\`batchdesk run --watch --store URL\`, or \`batchdesk run ${id} --store URL\`, which waits for it).\n`,
    resumed: (r) => [
      ...(r.switchApi && r.sentTo !== null
        ? [`It no longer keeps to ${destinationWords(r.sentTo)}: the next worker to send it records the API it sends to, and the rest goes there.\n`]
        : []),
      ...(r.newKey
        ? [
            `The key it was sent with was refused by the API, so it is now sent with this computer's key (…${r.newKey.hint}): every worker that sends it needs that same key (\`batchdesk keys add\`, or the environment variable).\n`,
          ]
        : []),
      ...(r.sameKey
        ? [
            `It goes on with the key the API refused (…${r.sameKey.hint}), the one this computer has: if that key was revoked, it pauses again at its first request; replace the key here (or resume from a computer with the new one) to send it with another.\n`,
          ]
        : []),
      r.resumed && r.short
        ? `Resumed ${r.id}. ${shortBudgetWords(r.id, r.short, true)}\n`
        : r.resumed
          ? `Resumed ${r.id}. Standing workers (\`batchdesk run --watch --store URL\`) pick it up within a second; a worker without --watch ended when it paused, so start one (\`batchdesk run ${r.id} --store URL\`) if none is standing.\n`
          : `${r.id} was not paused${r.budgetGiven ? ' (budget updated)' : ''}.\n`,
    ],
  };
}
