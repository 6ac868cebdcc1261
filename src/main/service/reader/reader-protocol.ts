// Messages between the window's process and its reader thread (reader-thread.ts), checked with zod
// where they arrive: the thread is started from a file, so nothing but these shapes is trusted.
import { z } from 'zod';
import { BatchSummary } from '../../../shared/domain';
import { RpcError } from '../../../shared/contract-calls';

/** What the engine last said of batches' trouble with the API (from its pushed snapshots). */
export const TroubleNote = BatchSummary.pick({ id: true, trouble: true });
export type TroubleNote = z.infer<typeof TroubleNote>;

export const ToReader = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), id: z.number().int(), method: z.string(), arg: z.unknown() }),
  z.object({ type: z.literal('trouble'), batches: z.array(TroubleNote) }),
  z.object({ type: z.literal('close') }),
]);
export type ToReader = z.infer<typeof ToReader>;

const Answer = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), result: z.unknown() }), z.object({ ok: z.literal(false), error: RpcError })]);

export const FromReader = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `response` null: the reader leaves this call to the engine. */
  z.object({ type: z.literal('result'), id: z.number().int(), response: Answer.nullable() }),
]);
export type FromReader = z.infer<typeof FromReader>;

/** What the thread is started with. */
export const ReaderData = z.object({ file: z.string() });
export type ReaderData = z.infer<typeof ReaderData>;
