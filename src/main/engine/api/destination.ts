// Which API a batch is sent to, remembered with the batch at its first claim (batches.api). Its
// items' idempotency keys are known to that API only: the rest sent to another (a command pasted
// without its --api-url reaching the embedded sandbox, a setting changed in the window) would
// have its "successes" made up by a sandbox, or an item whose answer was lost sent twice. So a
// runner sends a batch only to the API it started with; `resume --switch-api` lets it move on.
// A key stored with an API address of its own (`keys add --api-url`) sends there, whatever API the
// run targets: the key belongs to that API, and the run's would only refuse it.
import type { ApiTarget, ResolvedKey } from './target';
import { shellWord } from '../shell-word';

import { EMBEDDED_SANDBOX } from '../../../shared/made-up';

/** The embedded sandbox, wherever it listens this time (its port changes; its state is the data folder's). */
export { EMBEDDED_SANDBOX };

/** What a batch remembers of where it was sent: the API's base URL, or EMBEDDED_SANDBOX. */
export function destinationOf(target: Pick<ApiTarget, 'baseUrl' | 'sandbox'>): string {
  return target.sandbox ? EMBEDDED_SANDBOX : target.baseUrl;
}

/** Where a key's requests go: its own API if it has one, else the run's (the embedded sandbox included). */
export function sendTargetOf(target: Pick<ApiTarget, 'baseUrl' | 'sandbox'>, key: Pick<ResolvedKey, 'baseUrl'>): Pick<ApiTarget, 'baseUrl' | 'sandbox'> {
  return key.baseUrl === null ? { baseUrl: target.baseUrl, sandbox: target.sandbox } : { baseUrl: key.baseUrl, sandbox: false };
}

/** The destination in a sentence: "the embedded sandbox", "the API at https://api.example.com/". */
export function destinationWords(destination: string): string {
  return destination === EMBEDDED_SANDBOX ? 'the embedded sandbox' : `the API at ${destination}`;
}

/** The command that sends batch `id` on, to the API it was sent to (`sentTo`; null: not sent yet, any API). */
export function runCommandFor(id: string, sentTo: string | null): string {
  return sentTo === null || sentTo === EMBEDDED_SANDBOX ? `batchdesk run ${id}` : `batchdesk run ${id} --api-url ${shellWord(sentTo)}`;
}

/** A stored key whose own API address decides where its batch goes (`keys add --api-url`). */
export interface KeyWithAddress {
  kind: 'api' | 'channel';
  /** Its stored label, as `keys add --label` takes it. */
  label: string;
}

/**
 * Why a run did not send the rest of batch `id`, first sent to `sentTo`, to `here`; and how to go
 * on either way. Stored with the pause, shown by status and the window. `ownKey`: the batch's key
 * has an API address of its own, which is `here` whatever API the run is given.
 */
export function elsewhereReason(id: string, sentTo: string, here: string, ownKey: KeyWithAddress | null = null): string {
  const keyAdd = (url: string | null): string =>
    `\`batchdesk keys add --kind ${ownKey?.kind ?? 'api'} --label ${ownKey?.label ?? 'NAME'}${url === null ? '' : ` --api-url ${shellWord(url)}`}\``;
  const there =
    ownKey !== null
      ? sentTo === EMBEDDED_SANDBOX
        ? `Its key "${ownKey.label}" has an API address of its own, where its requests go whatever the run's API; stored again without one (${keyAdd(null)}) and run with no --api-url, it goes on there by itself`
        : `Its key "${ownKey.label}" has an API address of its own, where its requests go whatever the run's API; stored again with that address (${keyAdd(sentTo)}), it goes on there by itself`
      : sentTo === EMBEDDED_SANDBOX
        ? 'Run it with no --api-url (nor BATCHDESK_API_URL, nor an active key with an API address) and it goes on there by itself'
        : `\`${runCommandFor(id, sentTo)}\` goes on there by itself (in the window: Keys & rates, Settings, API URL)`;
  return (
    `Its first items were sent to ${destinationWords(sentTo)}, and this run sends to ${destinationWords(here)}, so nothing more was sent: ` +
    `the items' idempotency keys are known there only${here === EMBEDDED_SANDBOX ? ', and the sandbox makes up its results' : ''}. ${there}. ` +
    `To send the rest to ${destinationWords(here)} instead (an item whose answer was lost may then be sent twice): \`batchdesk resume ${id} --switch-api\`, then run it.`
  );
}
