// A 2xx whose body is not the route's answer (a proxy's HTML error page, an empty body, JSON of
// another shape) is not a success: the item is asked for again with the same key, and fails
// after the try budget with the answer kept (docs/api-assumptions.md A5, A16).
import { engineError, type EngineError } from '../../../shared/errors';
import type { ApiResponse } from '../api/request';

export function badResponse(res: ApiResponse, expected: string): EngineError {
  const type = res.headers.get('content-type') ?? 'no content type';
  const excerpt = res.body.toString('utf8', 0, Math.min(res.body.length, 120)).replace(/\s+/g, ' ').trim();
  return engineError(
    'bad_response',
    `The API answered HTTP ${res.status} but not with ${expected} (got ${type}${excerpt ? `: "${excerpt}"` : ', empty'}). Possibly a proxy's page rather than the API's answer; asked again with the same idempotency key.`,
    { httpStatus: res.status },
  );
}
