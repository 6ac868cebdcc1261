// The contract between the request pipeline and a route: read the body (streaming), give a
// canonical form of it for the idempotency fingerprint, then validate and describe the work.
import type { IncomingMessage } from 'node:http';
import type { Capability, Tier } from '../../shared/domain';
import type { KeyKind } from '../admin-schemas';
import type { Outcome } from '../http';
import type { KeyRecord, SandboxStore } from '../store';

export interface SandboxStats {
  /** Multipart uploads read so far. */
  uploads: number;
  /** Bytes of file content received over all uploads. */
  uploadBytes: number;
  /** Largest buffer the multipart parser ever held between two network chunks. */
  peakParserBytes: number;
}

export interface RequestContext {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  key: KeyRecord;
  stats: SandboxStats;
}

export interface Charge {
  capability: Capability;
  channel: string | null;
  tier: Tier;
  units: number;
}

export interface WorkContext {
  store: SandboxStore;
  key: KeyRecord;
  idempotencyKey: string | null;
}

export interface Prepared {
  /** What the work costs; billed (and checked against the cap) before perform runs. */
  charge: Charge | null;
  /** Runs inside the billing transaction; a throw rolls back the bill and any writes. */
  perform(work: WorkContext): Outcome;
}

export interface ReadResult {
  /** JSON value the fingerprint is computed from (never raw multipart bytes). */
  canonical: unknown;
  /** Validates the input; throws a storable ApiError to refuse it. */
  prepare(): Prepared;
}

export interface Route {
  method: 'GET' | 'POST';
  /** Matched against the path; capture groups become params by `paramNames`. */
  pattern: RegExp;
  paramNames: readonly string[];
  keyKind: KeyKind;
  idempotency: 'required' | 'optional' | 'none';
  read(ctx: RequestContext): Promise<ReadResult>;
}
