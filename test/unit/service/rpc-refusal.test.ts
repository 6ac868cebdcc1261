// A refusal's code crosses to the window with the error (the window words it); an error without
// one crosses as before, its English only.
import { describe, expect, it } from 'vitest';
import { toRpcError } from '../../../src/main/service/rpc-errors';
import { NotFoundError, UserError } from '../../../src/main/engine/failures';
import { RpcError } from '../../../src/shared/contract-calls';

describe('refusals over RPC', () => {
  it('carries the code beside the English, valid by the contract', () => {
    const e = toRpcError(new UserError('Batch b-1 has already started. Pause it instead (`batchdesk pause b-1`).', { code: 'schedule_started', batch: 'b-1' }));
    expect(RpcError.parse(e)).toEqual({
      code: 'invalid_argument',
      message: 'Batch b-1 has already started. Pause it instead (`batchdesk pause b-1`).',
      refusal: { code: 'schedule_started', batch: 'b-1' },
    });
    expect(toRpcError(new NotFoundError('No job 9.', { code: 'no_invoice_to_review', job: 9 }))).toMatchObject({
      code: 'not_found',
      refusal: { code: 'no_invoice_to_review', job: 9 },
    });
  });

  it('gives no code where the engine gave none', () => {
    expect(toRpcError(new UserError('No such key.'))).toEqual({ code: 'invalid_argument', message: 'No such key.' });
  });
});
