// Team mode's words and rules kept once for the command line and the window: what a batch made in
// the window cannot be when it goes to the team's shared store (shown by New batch before Start,
// enforced by the desk, desk/team-desk.ts), and how a worker that is up is described.
import type { BatchCapability } from './domain';
import { describe } from './capabilities/catalog';
import type { Refusal } from './refusals';

/**
 * Why a batch of `capability` cannot go to the team (null: it can), in English (the command line's,
 * naming the command to type) and as a code (the window's); `followUp`: a follow-up of an existing
 * batch. Steps after it (a pipeline) go with it.
 */
export function teamBatchRefusal(capability: BatchCapability, followUp: boolean): { words: string; refusal: Refusal } | null {
  const words = teamBatchWords(capability, followUp);
  if (words === null) return null;
  return { words, refusal: followUp ? { code: 'team_follow_up' } : { code: 'team_files', capability } };
}

function teamBatchWords(capability: BatchCapability, followUp: boolean): string | null {
  if (followUp) {
    return "A follow-up made here takes a batch of this computer, so it runs on this computer: send it from here. A follow-up of one of the team's batches is made with `batchdesk batch create CAPABILITY --from ID --store URL`, or plan the steps together for the team (Then… steps on a new batch).";
  }
  if (describe(capability).input.kind === 'files') {
    return `${describe(capability).label} reads files, which every worker must find at the same path, and files dropped in the window stay in this computer's data folder. Send it from this computer, or create it for the team from a shared folder with \`batchdesk batch create ${capability} FOLDER --store URL\`.`;
  }
  return null;
}

/** "standing, 3 in flight" or "idle": what a worker that is up is doing; `count` formats the number. */
export function workerState(w: { standing: boolean; running: number }, count: (n: number) => string = String): string {
  return [w.standing ? 'standing' : '', w.running > 0 ? `${count(w.running)} in flight` : 'idle'].filter(Boolean).join(', ');
}

/** A worker up and the batches it leaves to the others (no key for them on its machine). */
export interface WorkerLeaving {
  worker: string;
  left: readonly { batch: string; why: string }[];
}

/**
 * Who does not send a batch that still has items to send, and why; and when no worker up can send
 * it at all, what to do. Empty for a batch with nothing left to send.
 */
export function leftNotes(batchId: string, itemsToSend: number, workersUp: readonly WorkerLeaving[]): string[] {
  if (itemsToSend === 0) return [];
  const leaving = workersUp.flatMap((w) => w.left.filter((l) => l.batch === batchId).map((l) => ({ worker: w.worker, why: l.why })));
  const notes = leaving.map((l) => `not sent by ${l.worker}: ${l.why}`);
  if (leaving.length > 0 && leaving.length === workersUp.length) {
    notes.push(
      'No worker up can send it: add its key on one of them (they look again within a minute when standing), or start a worker on a computer that has it.',
    );
  }
  return notes;
}
