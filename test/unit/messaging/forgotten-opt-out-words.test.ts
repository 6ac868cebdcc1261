// A person who asked to be forgotten stays opted out as a keyed hash: every sentence that names
// their entry (the check before each send, a team's create) says who they are in words, never
// by the hash.
import { describe, expect, it } from 'vitest';
import { beforeSend } from '../../../src/main/engine/queue/before-send';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import { describeOptOut, type OptOut } from '../../../src/main/engine/messaging/opt-out-list';
import { FORGOTTEN_RECIPIENT, forgottenRecipient } from '../../../src/main/engine/messaging/forgotten-recipient';

const hashed: OptOut = { recipient: forgottenRecipient('+442079460123', Buffer.alloc(32, 7)), addedAt: Date.UTC(2026, 10, 3), source: 'forgotten' };
const plain: OptOut = { recipient: '+442079460999', addedAt: Date.UTC(2026, 10, 3), source: 'customers.csv row 4' };

describe('a forgotten recipient in words', () => {
  it('is named as one who asked to be forgotten, never by the hash', () => {
    const words = describeOptOut(hashed, "the team's opt-out list");
    expect(words).toBe(`${FORGOTTEN_RECIPIENT}, on the team's opt-out list since 2026-11-03`);
    expect(words).not.toContain('forgotten:');
    expect(describeOptOut(plain)).toBe('+442079460999 is on the opt-out list (since 2026-11-03, from customers.csv row 4)');
  });

  it('is the reason a message is not sent, checked just before sending', async () => {
    const job = { payload_json: JSON.stringify({ to: '+442079460123', text: 'Hello', subject: null, row: 2, fields: {} }), source: 'm.csv row 2', attempts: 0 };
    const checks = { optedOut: () => hashed, timing: () => ({ kind: 'send' as const }) };
    const r = await beforeSend(job, capabilityFor('channel'), checks);
    expect(r).toEqual({ kind: 'skip', reason: `not sent: ${FORGOTTEN_RECIPIENT}, on the opt-out list since 2026-11-03.` });
  });
});
