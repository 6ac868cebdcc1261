// A JSON POST whose body text was fixed at creation (stored with the job).
import type { ApiRequest } from '../api/request';
import type { OutputTarget } from './capability';

export function jsonRequest(
  path: string,
  job: { idempotencyKey: string; requestBody: string | null; output?: OutputTarget | null },
  fallback: () => string,
): ApiRequest {
  return {
    method: 'POST',
    path,
    idempotencyKey: job.idempotencyKey,
    credential: 'api',
    body: { kind: 'json', text: job.requestBody ?? fallback() },
    ...(job.output ? { saveTo: job.output.path } : {}),
  };
}
