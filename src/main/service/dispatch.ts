// The single entry for both transports: validate the argument against the contract, run the
// handler, and turn any failure into a typed RpcError. A payload that fails the schema is
// refused before anything is touched.
import { type MethodName, type RpcError } from '../../shared/contract';
import { methods } from '../../shared/contract-calls';
import type { Handlers } from './handlers';
import { toRpcError } from './rpc-errors';

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: RpcError };

export function isMethod(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

/** `handlers` may be a part of the map (the reader thread's): a method it lacks is refused as unknown. */
export async function dispatch(handlers: Partial<Handlers>, method: string, rawArg: unknown): Promise<DispatchResult> {
  if (!isMethod(method) || handlers[method] === undefined) return { ok: false, error: { code: 'invalid_argument', message: `Unknown method ${method}.` } };
  try {
    const arg: unknown = methods[method].arg.parse(rawArg ?? {});
    // The handler map is keyed by the same names as the schemas; the cast links the two.
    const handler = handlers[method] as (a: unknown) => Promise<unknown>;
    const result = await handler(arg);
    return { ok: true, result: methods[method].result.parse(result) };
  } catch (e) {
    return { ok: false, error: toRpcError(e) };
  }
}
