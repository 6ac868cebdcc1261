// The engine's closed error taxonomy: every failure is one of these kinds, and each kind has
// exactly one action the queue takes. Switches over ErrorKind end in assertNever.
import { z } from 'zod';
import { assertNever } from './domain';

export const ERROR_KINDS = [
  'auth', // 401/403: key unknown, revoked or of the wrong kind
  'quota', // spending cap of the key reached (402)
  'rate_limited', // 429: request limit of the key
  'transient', // network error, timeout, 408/409/425/5xx
  'invalid_request', // 400/404/413/415/422: the server refuses this item as sent
  'invalid_input', // the source changed, vanished or is unusable
  'bad_response', // a 2xx whose body is not the answer the route gives (a proxy's HTML page, say)
  'local_io', // could not read a local file
  'internal', // a bug or an unparseable success response
] as const;
export const ErrorKind = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof ErrorKind>;

export type ErrorAction = 'pause_batch' | 'retry_later' | 'fail_job';

export function actionFor(kind: ErrorKind): ErrorAction {
  switch (kind) {
    case 'auth':
    case 'quota':
      return 'pause_batch';
    case 'rate_limited':
    case 'transient':
    // Maybe not the API's answer at all: ask again with the same key; fail after the try budget.
    case 'bad_response':
      return 'retry_later';
    case 'invalid_request':
    case 'invalid_input':
    case 'local_io':
    case 'internal':
      return 'fail_job';
    default:
      return assertNever(kind, 'error kind');
  }
}

export const EngineError = z.object({
  kind: ErrorKind,
  message: z.string(),
  httpStatus: z.number().int().nullable(),
  code: z.string().nullable(),
  retryAfterMs: z.number().int().nullable(),
});
export type EngineError = z.infer<typeof EngineError>;

export function engineError(kind: ErrorKind, message: string, extra: Partial<Omit<EngineError, 'kind' | 'message'>> = {}): EngineError {
  return { kind, message, httpStatus: extra.httpStatus ?? null, code: extra.code ?? null, retryAfterMs: extra.retryAfterMs ?? null };
}
