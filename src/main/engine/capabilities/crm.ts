// POST /v1/crm/{contacts|conversations|events} with the record -> 201 {id, ...} (A10); billed
// per record. Every write carries its job's Idempotency-Key, so a retried write never creates a
// second contact; the result is the CRM record id.
import { z } from 'zod';
import { CAPABILITY_DESCRIPTORS, describe } from '../../../shared/capabilities/catalog';
import type { CrmRecordKind } from '../../../shared/capabilities/options';
import { badResponse } from './bad-response';
import type { BatchContext, CapabilityModule } from './capability';
import { parseJson } from './file-payload';
import { jsonRequest } from './json-request';
import { rowJobParts, type RowPayload } from './row-payload';

const descriptor = CAPABILITY_DESCRIPTORS.crm;
const CrmResponse = z.object({ id: z.union([z.string().min(1), z.number()]) }).passthrough();
const recordOf = (ctx: BatchContext): CrmRecordKind => ctx.options.record ?? descriptor.defaults?.record ?? 'contact';
const PATH: Record<CrmRecordKind, string> = { contact: '/crm/contacts', conversation: '/crm/conversations', event: '/crm/events' };

/** The record: the row's columns (empty cells left out); a follow-up item's text goes in as `text`. */
function record(p: RowPayload): Record<string, string> {
  const r: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.fields)) if (v.trim() !== '') r[k] = v;
  if (p.input !== '' && r.text === undefined) r.text = p.input;
  return r;
}
const body = (p: RowPayload): string => JSON.stringify(record(p));

export const crm: CapabilityModule<RowPayload> = {
  descriptor: describe('crm'),
  ...rowJobParts('crm', body),
  plan(item) {
    if (item.kind !== 'row') return { ok: false, why: 'rows_only', message: 'CRM records come from CSV rows.' };
    const fields = Object.fromEntries(Object.entries(item.fields).filter(([k]) => k.trim() !== ''));
    const input = (item.text ?? '').trim();
    if (input === '' && Object.values(fields).every((v) => v.trim() === ''))
      return { ok: false, why: 'row_empty', message: 'the row is empty: a record needs at least one field' };
    return { ok: true, payload: { row: item.row, line: item.line, input, name: fields.name?.trim() || null, fields, output: null }, units: 1 };
  },
  sameAs: (_p, ctx) => `the same ${recordOf(ctx)} was already written`,
  delivery: (p, ctx) => `crm\0${recordOf(ctx)}\0${body(p)}`,
  buildRequest: (p, job, ctx) => jsonRequest(PATH[recordOf(ctx)], job, () => body(p)),
  parseResponse(res, _p, _estimated, ctx) {
    const parsed = CrmResponse.safeParse(parseJson(res.body));
    if (!parsed.success) return { ok: false, error: badResponse(res, 'the written record (JSON with "id")') };
    return { ok: true, result: { record: recordOf(ctx), record_id: String(parsed.data.id) }, units: 1 };
  },
};
