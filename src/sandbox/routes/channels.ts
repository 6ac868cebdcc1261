// POST /v1/channels/{channel} {to, text, subject?} -> 200 {id, status: 'accepted', channel, to}
// (A1, A5, A6). Channel key and Idempotency-Key required; each delivery lands in the ledger once.
import { z } from 'zod';
import { channelKindOf } from '../../shared/rates';
import { CHANNEL_NAME_RE } from '../../shared/domain';
import { invalid, jsonOutcome } from '../http';
import { randomId } from '../store';
import { jsonRoute } from './common';
import { MADE_UP } from '../made-up';

const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]{2,}$/;

const ChannelBody = z.object({
  to: z.string().min(1).max(320),
  text: z.string().min(1).max(100_000),
  subject: z.string().max(998).optional(),
  /** Voice calls: a voice name from the panel (A6). */
  voice: z.string().min(1).max(64).optional(),
});

export const channelRoute = jsonRoute({
  pattern: /^\/v1\/channels\/([^/]+)$/,
  paramNames: ['channel'],
  keyKind: 'channel',
  idempotency: 'required',
  schema: ChannelBody,
  prepare: (body, ctx) => {
    const channel = ctx.params.channel ?? '';
    if (!CHANNEL_NAME_RE.test(channel)) throw invalid(404, 'unknown_channel', `"${channel}" is not a channel name.`);
    const kind = channelKindOf(channel);
    if (body.voice !== undefined && kind !== 'voice') throw invalid(422, 'invalid_field', 'voice: only voice calls take a voice.');
    if (kind === 'email' ? !EMAIL.test(body.to) : !E164.test(body.to)) {
      const want = kind === 'email' ? 'an e-mail address' : 'a phone number in E.164 format (+14155550123)';
      throw invalid(422, 'invalid_recipient', `to: expected ${want}.`);
    }
    return {
      charge: { capability: 'channel', channel, tier: 'standard', units: 1 },
      perform: (w) => {
        const id = randomId('msg_');
        w.store.recordDelivery({
          id,
          channel,
          to: body.to,
          text: body.text,
          subject: kind === 'email' ? (body.subject ?? null) : null,
          idempotency_key: w.idempotencyKey,
          client: w.key.client,
          key_id: w.key.id,
          at: new Date().toISOString(),
        });
        // Only in the sandbox's ledger: nobody receives it (A21).
        return jsonOutcome(200, { id, status: 'accepted', channel, to: body.to, ...MADE_UP });
      },
    };
  },
});
