// Errors that cross the window boundary, each mapped onto one RpcErrorCode.
import { ZodError } from 'zod';
import type { RpcError } from '../../shared/contract';
import { UserError } from '../engine/engine';
import { EngineBusyError } from '../engine/engine-lock';
import { KeychainUnavailableError } from '../engine/secrets/secret-store';

export class NotFoundError extends Error {}
export class InvalidArgumentError extends Error {}

export function toRpcError(e: unknown): RpcError {
  if (e instanceof ZodError) {
    const first = e.issues[0];
    return { code: 'invalid_argument', message: `Invalid request${first ? ` (${first.path.join('.') || 'argument'}: ${first.message})` : ''}.` };
  }
  if (e instanceof InvalidArgumentError) return { code: 'invalid_argument', message: e.message };
  if (e instanceof NotFoundError) return { code: 'not_found', message: e.message };
  if (e instanceof UserError) return { code: 'invalid_argument', message: e.message };
  if (e instanceof EngineBusyError) return { code: 'conflict', message: e.message };
  if (e instanceof KeychainUnavailableError) return { code: 'unavailable', message: e.message };
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}
