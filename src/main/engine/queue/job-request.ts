// A job's request, built and sent the same way by both runners (the local one and a team
// worker): its output file in the batch's outputs folder, its deadline from its upload size, and
// a network failure put in the taxonomy's words.
import { join } from 'node:path';
import type { ApiRequest, ApiResponse, RequestBody } from '../api/request';
import type { BatchContext, CapabilityModule, OutputTarget } from '../capabilities/capability';
import type { LeasedJob } from './job-row';
import { sendRequest, NetworkError, type MinRate } from '../api/http-client';
import { outputsDirOf } from '../output-names';
import { engineError, type EngineError } from '../../../shared/errors';

export interface SendLimits {
  idleTimeoutMs: number;
  /** Overall deadline of one request: base, plus time for the upload at a slow but working speed. */
  deadline: { baseMs: number; uploadBytesPerSecond: number };
  /** An answer whose body has begun and then comes slower than this is cut (a trickle). */
  minRate: MinRate;
}

/** The request for a job, with the key and body it was made with; a binary answer goes to the batch's outputs folder. */
export function requestFor<P>(
  cap: CapabilityModule<P>,
  payload: P,
  job: Pick<LeasedJob, 'idempotency_key' | 'request_body'>,
  batchId: string,
  ctx: BatchContext,
  dataDir: string,
): ApiRequest {
  const outputName = cap.outputFile?.(payload) ?? null;
  const output: OutputTarget | null = outputName === null ? null : { path: join(outputsDirOf(dataDir, batchId), outputName), name: outputName };
  return cap.buildRequest(payload, { idempotencyKey: job.idempotency_key, requestBody: job.request_body, output }, ctx);
}

function deadlineFor(body: RequestBody, limits: SendLimits): number {
  const { baseMs, uploadBytesPerSecond } = limits.deadline;
  const upload = body.kind === 'multipart' ? body.file.size : Buffer.byteLength(body.text);
  return baseMs + Math.ceil((upload / uploadBytesPerSecond) * 1000);
}

export function sendJobRequest(baseUrl: string, secret: string, request: ApiRequest, signal: AbortSignal, limits: SendLimits): Promise<ApiResponse> {
  return sendRequest({ baseUrl, key: secret }, request, {
    signal,
    idleTimeoutMs: limits.idleTimeoutMs,
    deadlineMs: deadlineFor(request.body, limits),
    minRate: limits.minRate,
  });
}

/**
 * A request that got no answer: transient, retried with the same key. Its code says a trickled
 * body (`slow_body`) or no answer in time (`no_answer`), for the words of a long wait (queue/wait-budget.ts).
 */
export function networkFailure(e: unknown): EngineError {
  const net = e instanceof NetworkError ? e : new NetworkError(e instanceof Error ? e.message : String(e), false);
  return engineError(
    'transient',
    `Network problem: ${net.message}.${net.bodySent ? ' The API may have received the item; it is resent with the same idempotency key, so it is not done twice.' : ''}`,
    { code: net.why === 'network' ? null : net.why },
  );
}
