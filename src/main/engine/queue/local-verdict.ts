// An item its capability answers on this computer (CapabilityModule.readLocally: an e-invoice in
// an OCR batch) ends here, for the local runner and a team worker alike: read, never sent, with no
// attempt (nothing went to the API) and cost 0. Pure apart from the read: the caller writes the outcome.
import type { CapabilityModule } from '../capabilities/capability';
import type { AnswerVerdict } from './answer-verdict';
import { engineError } from '../../../shared/errors';

/**
 * What the stored payload of every item read locally holds (an e-invoice's `einvoice` key, see
 * read-models/einvoice-counts.ts), and no other item's: the runner claims these beside the API's
 * rate gate (JobStore.claim readHereOnly, schema step 25's index, which repeats the literal).
 * A payload that holds it but is not read here after all is sent through the gate as any other.
 */
export const READ_HERE_MARK = '"einvoice"';

/**
 * Items read on this computer in flight at once, beside the API's gate (the local runner's and a
 * team worker's): they never take a slot of it, and reading a PDF is work for a core, not a wait
 * on the network.
 */
export const READS_HERE_AT_ONCE = 2;

/** Whether a claimed job's stored payload carries the mark (a cheap test; localVerdict decides). */
export function markedReadHere(payloadJson: string): boolean {
  return payloadJson.includes(READ_HERE_MARK);
}

/** Whether a claimed job is read here (its capability reads locally and its payload has the mark), not sent. */
export function readsHere(cap: Pick<CapabilityModule<unknown>, 'readLocally'>, job: { payload_json: string }): boolean {
  return cap.readLocally !== undefined && markedReadHere(job.payload_json);
}

/** The stored "answer" of an item read locally: there is none, and this says why. */
export const READ_LOCALLY_RAW = '[read on this computer: no request was sent]';

export type LocalVerdict = Extract<AnswerVerdict, { kind: 'succeeded' | 'failed' }>;

/** The item's outcome when its capability reads it locally; null when it is to be sent. */
export async function localVerdict<P>(cap: CapabilityModule<P>, payload: P, source: string): Promise<LocalVerdict | null> {
  const read = cap.readLocally?.(payload) ?? null;
  if (read === null) return null;
  try {
    const parsed = await read();
    if (!parsed.ok) return { kind: 'failed', err: parsed.error, raw: null };
    return { kind: 'succeeded', units: parsed.units, cost: 0, resultJson: JSON.stringify(parsed.result), raw: READ_LOCALLY_RAW };
  } catch (e) {
    // The file went between the check before sending and the read (moved, deleted, unreadable).
    const detail = e instanceof Error ? e.message : String(e);
    return {
      kind: 'failed',
      err: engineError('invalid_input', `${source} could not be read (${detail}). Check that the file is still there and readable, then retry the item.`),
      raw: null,
    };
  }
}
