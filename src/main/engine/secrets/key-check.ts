// Which key a shared batch was planned with, without the key: an HMAC of the batch's id under the
// key (it tells one key from another and gives nothing of it away), and its last four characters
// for the message. A team worker whose key of the same label (or the same environment variable)
// is another key leaves the batch: sending it would bill another account.
import { createHmac } from 'node:crypto';
import { last4 } from './key-manager';

export interface KeyCheck {
  check: string;
  hint: string;
}

export function keyCheckOf(secret: string, batchId: string): KeyCheck {
  return { check: createHmac('sha256', secret).update(`batchdesk key check ${batchId}`).digest('hex').slice(0, 32), hint: last4(secret) };
}
