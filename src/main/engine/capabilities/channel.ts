// POST /v1/channels/{channel}: JSON {to, text} with the channel key and an Idempotency-Key;
// one message (or call) per job (A1, A5, A6).
import { z } from 'zod';
import { describe } from '../../../shared/capabilities/catalog';
import { DEFAULT_MESSAGING_CHANNEL } from '../../../shared/settings-rules';
import type { DeliveryState } from '../../../shared/delivery-states';
import type { CapabilityModule } from './capability';
import { parseJson } from './file-payload';
import { badResponse } from './bad-response';
import { engineError, type EngineError } from '../../../shared/errors';
import type { ApiResponse } from '../api/request';

export const ChannelPayload = z.object({
  to: z.string().min(1),
  text: z.string().min(1),
  subject: z.string().nullable(),
  row: z.number().int(),
  fields: z.record(z.string(), z.string()),
});
export type ChannelPayload = z.infer<typeof ChannelPayload>;

/** A5: a send is confirmed by a JSON object naming the message id and its status. */
const ChannelResponse = z.object({ id: z.string().min(1), status: z.string().min(1) }).passthrough();

/**
 * The statuses that say the API took the message for delivery (A5): any other ("rejected",
 * "failed", "blocked", ...) is a refusal, however the HTTP status reads.
 */
export const SENT_STATUSES: readonly string[] = ['accepted', 'queued', 'sent', 'delivered'] satisfies readonly DeliveryState[];

/** Where an answer may give its reason for refusing a send, in order of preference. */
const REASON_FIELDS = ['reason', 'message', 'error', 'detail', 'description', 'error_message'] as const;

/** The API's own words about a refused send: its reason field, else the whole answer (cut). */
function refusalWords(answer: Record<string, unknown>): string {
  for (const field of REASON_FIELDS) {
    const v = answer[field];
    if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 500);
    if (v !== null && typeof v === 'object') {
      const inner = (v as Record<string, unknown>).message ?? (v as Record<string, unknown>).code;
      if (typeof inner === 'string' && inner.trim() !== '') return inner.trim().slice(0, 500);
    }
  }
  return JSON.stringify(answer).slice(0, 300);
}

/**
 * A 2xx whose status is not one of SENT_STATUSES: the API answered, so nothing was lost and
 * asking again (same key) would only replay the refusal. The item fails, with the API's words.
 */
function refusedSend(res: ApiResponse, status: string, answer: Record<string, unknown>): EngineError {
  return engineError(
    'invalid_request',
    `The API answered HTTP ${res.status} but did not send the message: status "${status.slice(0, 60)}" (the API said: ${refusalWords(answer)}). Batchdesk counts only ${SENT_STATUSES.join(', ')} as sent; nothing is billed for this item. Check the recipient and the text; to send it again, create a new batch for it (a new idempotency key).`,
    { httpStatus: res.status, code: status.slice(0, 60) },
  );
}

const channelOf = (ctx: { channel: string | null }): string => ctx.channel ?? DEFAULT_MESSAGING_CHANNEL;

export const channel: CapabilityModule<ChannelPayload> = {
  descriptor: describe('channel'),
  payload: ChannelPayload,
  plan: (item) =>
    item.kind === 'message'
      ? {
          ok: true,
          payload: { to: item.message.to, text: item.message.text, subject: item.message.subject, row: item.message.row, fields: item.message.fields },
          units: 1,
        }
      : { ok: false, why: 'messages_only', message: 'messages come from a message CSV (to, text).' },
  delivery: (p, ctx) => `msg\0${channelOf(ctx)}\0${p.to}\0${p.text}`,
  sameAs: (p, ctx) => `the same message to ${p.to} on ${channelOf(ctx)} was already queued or sent`,
  requestBody(p, ctx) {
    // Written as JSON.stringify would write {to, text[, subject | voice]}, from the strings
    // alone: no object per message (a tenth of planning a 100,000-row import went on these).
    let body = `{"to":${JSON.stringify(p.to)},"text":${JSON.stringify(p.text)}`;
    if (ctx.channel === 'email' && p.subject) body += `,"subject":${JSON.stringify(p.subject)}`;
    if (ctx.channel === 'voice' && ctx.options.voice) body += `,"voice":${JSON.stringify(ctx.options.voice)}`;
    return `${body}}`;
  },
  buildRequest(p, job, ctx) {
    const text = job.requestBody ?? channel.requestBody(p, ctx);
    if (text === null) throw new Error('channel request body missing');
    return { method: 'POST', path: `/channels/${channelOf(ctx)}`, idempotencyKey: job.idempotencyKey, credential: 'channel', body: { kind: 'json', text } };
  },
  parseResponse(res) {
    const parsed = ChannelResponse.safeParse(parseJson(res.body));
    if (!parsed.success) return { ok: false, error: badResponse(res, 'a send confirmation (JSON with "id" and "status")') };
    if (!SENT_STATUSES.includes(parsed.data.status.trim().toLowerCase())) return { ok: false, error: refusedSend(res, parsed.data.status, parsed.data) };
    return { ok: true, result: { message_id: parsed.data.id, status: parsed.data.status }, units: 1 };
  },
  sourceFile: () => null,
  sourceView: (p) => ({ kind: 'message', to: p.to, text: p.text, subject: p.subject, row: p.row }),
  recipient: (p) => p.to,
  recipientFields: (p) => p.fields,
  sourceColumns: (p) => ({ to: p.to, text: p.text }),
  // An e-mail's subject is a column of the CSV too (the others are not read by any channel).
  userColumns: (p) => (p.subject === null ? p.fields : { subject: p.subject, ...p.fields }),
};
