// CRM (A10): POST /v1/crm/{kind} -> 201 {id, ...record}; GET /v1/crm/{kind}/{id}; GET /v1/crm/{kind}.
// Records are scoped to the key's client; every successful request is billed as one unit. The
// records live only in the sandbox's own CRM, so its answers carry the made-up mark (A21).
import { z } from 'zod';
import { ApiError, jsonOutcome } from '../http';
import type { CrmKind, CrmRecord } from '../store';
import { getRoute, jsonRoute } from './common';
import type { Charge } from './types';
import { MADE_UP } from '../made-up';

const KINDS = 'contacts|conversations|events';
const CrmKindSchema = z.enum(['contacts', 'conversations', 'events']);
// Any JSON object; `id` is assigned by the server.
const CrmBody = z.record(z.string(), z.unknown()).refine((r) => !('id' in r), 'id is assigned by the server');
const Limit = z.coerce.number().int().min(1).max(500).default(100);

const CHARGE: Charge = { capability: 'crm', channel: null, tier: 'standard', units: 1 };

function kindOf(params: Record<string, string>): CrmKind {
  return CrmKindSchema.parse(params.kind);
}

function view(r: CrmRecord): Record<string, unknown> {
  return { id: r.id, ...r.data, created_at: r.created_at };
}

export const crmCreateRoute = jsonRoute({
  pattern: new RegExp(`^/v1/crm/(${KINDS})$`),
  paramNames: ['kind'],
  keyKind: 'api',
  idempotency: 'optional',
  schema: CrmBody,
  prepare: (body, ctx) => ({
    charge: CHARGE,
    perform: (w) => jsonOutcome(201, { ...view(w.store.insertCrm(kindOf(ctx.params), w.key.client, body)), ...MADE_UP }),
  }),
});

export const crmGetRoute = getRoute({
  pattern: new RegExp(`^/v1/crm/(${KINDS})/([^/]+)$`),
  paramNames: ['kind', 'id'],
  prepare: (ctx) => ({
    charge: CHARGE,
    perform: (w) => {
      const rec = w.store.getCrm(kindOf(ctx.params), w.key.client, ctx.params.id ?? '');
      // Thrown inside the billing transaction, so a miss is not billed.
      if (!rec) throw new ApiError(404, 'not_found', `No ${ctx.params.kind ?? 'record'} with id ${ctx.params.id ?? ''}.`);
      return jsonOutcome(200, { ...view(rec), ...MADE_UP });
    },
  }),
});

export const crmListRoute = getRoute({
  pattern: new RegExp(`^/v1/crm/(${KINDS})$`),
  paramNames: ['kind'],
  prepare: (ctx) => {
    const limit = Limit.safeParse(ctx.url.searchParams.get('limit') ?? undefined);
    if (!limit.success) throw new ApiError(422, 'invalid_field', 'limit: an integer from 1 to 500.');
    return {
      charge: CHARGE,
      perform: (w) => jsonOutcome(200, { data: w.store.listCrm(kindOf(ctx.params), w.key.client, limit.data).map(view), ...MADE_UP }),
    };
  },
});
