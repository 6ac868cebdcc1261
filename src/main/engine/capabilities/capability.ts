// One module per API capability: it builds the request from a job's stored payload, parses
// the response, and says how many billable units the job used.
import type { z } from 'zod';
import type { BatchCapability, Tier } from '../../../shared/domain';
import type { EngineError } from '../../../shared/errors';
import type { RateItem } from '../../../shared/rates';
import type { ApiRequest, ApiResponse, Credential } from '../api/request';

export interface BatchContext {
  tier: Tier;
  channel: string | null;
  /** Voice calls: the voice to speak with; fixed into the request body at creation. */
  voice?: string | null;
}

export type ParseResult = { ok: true; result: unknown; units: number } | { ok: false; error: EngineError };

export interface CapabilityModule<P> {
  readonly name: BatchCapability;
  readonly credential: Credential;
  readonly payload: z.ZodType<P>;
  rateItem(ctx: BatchContext): RateItem;
  /** JSON routes fix their body text at creation; multipart routes return null. */
  requestBody(payload: P, ctx: BatchContext): string | null;
  buildRequest(payload: P, job: { idempotencyKey: string; requestBody: string | null }, ctx: BatchContext): ApiRequest;
  parseResponse(res: ApiResponse, payload: P, estimatedUnits: number): ParseResult;
  /** The source file the job reads, when there is one, for change detection. */
  sourceFile(payload: P): { path: string; size: number; mtimeMs: number; sha256: string } | null;
}
