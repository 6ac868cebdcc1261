// Errors that cross the window boundary: the engine's failure kinds (engine/failures.ts),
// each mapped onto one RpcErrorCode.
import type { RpcError, RpcErrorCode } from '../../shared/contract';
import { assertNever } from '../../shared/domain';
import { classifyFailure, type FailureKind } from '../engine/failures';

export { NotFoundError, UserError as InvalidArgumentError } from '../engine/failures';

function codeFor(kind: FailureKind): RpcErrorCode {
  switch (kind) {
    case 'invalid':
      return 'invalid_argument';
    case 'not_found':
      return 'not_found';
    case 'busy':
      return 'conflict';
    case 'unavailable':
      return 'unavailable';
    case 'internal':
      return 'internal';
    default:
      return assertNever(kind, 'failure kind');
  }
}

export function toRpcError(e: unknown, dataDir?: string): RpcError {
  const f = classifyFailure(e, dataDir);
  return { code: codeFor(f.kind), message: f.message, ...(f.refusal ? { refusal: f.refusal } : {}) };
}
