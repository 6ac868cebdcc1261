// Helpers shared by the route modules: JSON route boilerplate, tier parsing and unit counting.
import { z } from 'zod';
import { Tier } from '../../shared/domain';
import { describeIssues, invalid, isJsonType, mediaTypeOf, parseJsonText, readSmallBody } from '../http';
import { sha256Hex } from '../results';
import type { Prepared, RequestContext, Route } from './types';

const JSON_BODY_LIMIT = 8 * 1024 * 1024;

/** Optional `tier` (A2), defaulting to standard. */
export const TierField = Tier.optional().default('standard');

export function tierOf(value: string | undefined): Tier {
  const r = TierField.safeParse(value);
  if (!r.success) throw invalid(422, 'invalid_field', `tier: expected one of basic, standard, superior.`);
  return r.data;
}

export { characters } from '../../shared/characters';

export interface JsonRouteDef<S extends z.ZodType> {
  pattern: RegExp;
  paramNames?: readonly string[];
  keyKind: Route['keyKind'];
  idempotency: Route['idempotency'];
  schema: S;
  prepare(body: z.output<S>, ctx: RequestContext): Prepared;
}

/** A POST route taking a JSON body validated by `schema` (400 malformed JSON, 422 invalid fields). */
export function jsonRoute<S extends z.ZodType>(def: JsonRouteDef<S>): Route {
  return {
    method: 'POST',
    pattern: def.pattern,
    paramNames: def.paramNames ?? [],
    keyKind: def.keyKind,
    idempotency: def.idempotency,
    async read(ctx) {
      const type = mediaTypeOf(ctx.req);
      if (!isJsonType(type)) throw invalid(415, 'unsupported_media_type', `Send JSON (Content-Type: application/json), not ${type}.`);
      const raw = await readSmallBody(ctx.req, JSON_BODY_LIMIT);
      const parsed = parseJsonText(raw);
      return {
        // Malformed bodies still get a fingerprint, so their 400 replays like any validation refusal.
        canonical: parsed.ok ? parsed.value : { unparseable_body_sha256: sha256Hex(raw) },
        prepare() {
          if (!parsed.ok) throw invalid(400, 'invalid_json', parsed.message);
          const r = def.schema.safeParse(parsed.value);
          if (!r.success) throw invalid(422, 'invalid_field', describeIssues(r.error));
          return def.prepare(r.data, ctx);
        },
      };
    },
  };
}

/** A GET route: no body, nothing to fingerprint. */
export function getRoute(def: { pattern: RegExp; paramNames: readonly string[]; prepare(ctx: RequestContext): Prepared }): Route {
  return {
    method: 'GET',
    pattern: def.pattern,
    paramNames: def.paramNames,
    keyKind: 'api',
    idempotency: 'none',
    read(ctx) {
      return Promise.resolve({ canonical: null, prepare: () => def.prepare(ctx) });
    },
  };
}
