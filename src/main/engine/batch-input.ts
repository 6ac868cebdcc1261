// The argument of "create a batch": the contract's schema, so the window, the browser host, the
// command line and the engine validate one definition.
import { BatchRequest, type BatchRequestParsed } from '../../shared/contract';

export const CreateBatchInput = BatchRequest;
export type CreateBatchInput = BatchRequest;
export type CreateBatchParsed = BatchRequestParsed;
