// A recipient who asked to be forgotten (`batchdesk forget`) but had opted out stays on the list
// as a keyed one-way hash of the address as sent to (HMAC-SHA-256 under a secret of this data
// folder, or of the team's store): the list can still tell "this is them" when a batch names them
// again, and nobody can read the number or address back from it. Unkeyed, a phone number's hash
// would be reversed by trying every number; keyed, only with the secret.
import { createHmac, randomBytes } from 'node:crypto';

export const FORGOTTEN_PREFIX = 'forgotten:';

/** How such an entry is named in words (a skipped job's reason, a refused row): never by its hash. */
export const FORGOTTEN_RECIPIENT = 'a recipient who asked to be forgotten (stays opted out)';

/** The entry that stands for `recipient` (as sent to: E.164 or lower-cased e-mail) once forgotten. */
export function forgottenRecipient(recipient: string, secret: Buffer): string {
  return `${FORGOTTEN_PREFIX}${createHmac('sha256', secret).update(recipient).digest('hex')}`;
}

/** A new secret: made once, on the first `forget` of an opted-out person, and never changed. */
export function newForgetSecret(): Buffer {
  return randomBytes(32);
}

/** The settings key of this data folder's secret (hex). */
export const FORGET_SECRET_SETTING = 'forget_secret';
