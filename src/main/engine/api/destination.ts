// Which API a batch is sent to, remembered with the batch at its first claim (batches.api). Its
// items' idempotency keys are known to that API only: the rest sent to another (a command pasted
// without its --api-url reaching the embedded sandbox, a setting changed in the window) would
// have its "successes" made up by a sandbox, or an item whose answer was lost sent twice. So a
// runner sends a batch only to the API it started with; `resume --switch-api` lets it move on.
import type { ApiTarget } from './target';
import { shellWord } from '../shell-word';

/** The embedded sandbox, wherever it listens this time (its port changes; its state is the data folder's). */
export const EMBEDDED_SANDBOX = 'embedded sandbox';

/** What a batch remembers of where it was sent: the API's base URL, or EMBEDDED_SANDBOX. */
export function destinationOf(target: Pick<ApiTarget, 'baseUrl' | 'sandbox'>): string {
  return target.sandbox ? EMBEDDED_SANDBOX : target.baseUrl;
}

/** The destination in a sentence: "the embedded sandbox", "the API at https://api.example.com/". */
export function destinationWords(destination: string): string {
  return destination === EMBEDDED_SANDBOX ? 'the embedded sandbox' : `the API at ${destination}`;
}

/** The command that sends batch `id` on, to the API it was sent to (`sentTo`; null: not sent yet, any API). */
export function runCommandFor(id: string, sentTo: string | null): string {
  return sentTo === null || sentTo === EMBEDDED_SANDBOX ? `batchdesk run ${id}` : `batchdesk run ${id} --api-url ${shellWord(sentTo)}`;
}

/**
 * Why a run did not send the rest of batch `id`, first sent to `sentTo`, to `here`; and how to go
 * on either way. Stored with the pause, shown by status and the window.
 */
export function elsewhereReason(id: string, sentTo: string, here: string): string {
  const there =
    sentTo === EMBEDDED_SANDBOX
      ? 'Run it with no --api-url (nor BATCHDESK_API_URL, nor an active key with an API address) and it goes on there by itself'
      : `\`${runCommandFor(id, sentTo)}\` goes on there by itself (in the window: Keys & rates, Settings, API URL)`;
  return (
    `Its first items were sent to ${destinationWords(sentTo)}, and this run sends to ${destinationWords(here)}, so nothing more was sent: ` +
    `the items' idempotency keys are known there only${here === EMBEDDED_SANDBOX ? ', and the sandbox makes up its results' : ''}. ${there}. ` +
    `To send the rest to ${destinationWords(here)} instead (an item whose answer was lost may then be sent twice): \`batchdesk resume ${id} --switch-api\`, then run it.`
  );
}
