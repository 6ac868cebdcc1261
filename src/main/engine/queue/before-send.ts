// What stands between a claimed job and its request, for the local runner and a team worker
// alike: a payload that still reads, a recipient who has not opted out since the batch was made,
// the recipient's time (quiet hours, and the gap since their last message, in the caller's store),
// and a source file that is still the one measured. The caller writes the outcome in its
// own store; only the send goes on.
import type { CapabilityModule } from '../capabilities/capability';
import { describeOptOut, type OptOut } from '../messaging/opt-out-list';
import type { SendTiming } from '../messaging/send-hold';
import { verifySource, type SourceOrigin } from './verify-source';
import { OPTED_OUT_PREFIX } from './stored-notes';
import { engineError, type EngineError } from '../../../shared/errors';

export type BeforeSend<P> =
  /** `recipient`: whom the message goes to (null for a capability that messages nobody). */
  | { kind: 'send'; payload: P; src: ReturnType<CapabilityModule<P>['sourceFile']>; recipient: string | null }
  | { kind: 'skip'; reason: string }
  | { kind: 'hold'; until: number; message: string }
  | { kind: 'fail'; err: EngineError };

/** A job that passed the checks before sending. */
export type Sendable<P> = Extract<BeforeSend<P>, { kind: 'send' }>;

export interface SendChecks {
  /** The opt-out list at this moment (a team worker also asks the team's list in the shared store). */
  optedOut(recipient: string): OptOut | null | Promise<OptOut | null>;
  /** Whether the recipient may be messaged now (and, when it may, noting the send for the recipient's gap). */
  timing(recipient: string, fields: Readonly<Record<string, string>>): SendTiming | Promise<SendTiming>;
}

export async function beforeSend<P>(
  job: { payload_json: string; source: string; attempts: number },
  cap: CapabilityModule<P>,
  checks: SendChecks,
  /** Where the item's file came from: the advice for a changed file differs (`watch resend`). */
  origin: SourceOrigin = 'batch',
): Promise<BeforeSend<P>> {
  const parsed = cap.payload.safeParse(JSON.parse(job.payload_json));
  if (!parsed.success) return { kind: 'fail', err: engineError('internal', `${job.source}: the stored job payload is not valid (${parsed.error.message}).`) };
  const payload = parsed.data;
  // Checked again just before sending: an opt-out added while the batch runs counts at once.
  const recipient = cap.recipient?.(payload);
  if (recipient !== undefined) {
    const optedOut = await checks.optedOut(recipient);
    if (optedOut) {
      const maybe = job.attempts > 0 ? ' An earlier attempt, whose answer was lost, may have reached them.' : '';
      return { kind: 'skip', reason: `${OPTED_OUT_PREFIX}${describeOptOut(optedOut)}.${maybe}` };
    }
    // Too early is not a failure: the job waits its time.
    const timing = await checks.timing(recipient, cap.recipientFields?.(payload) ?? {});
    if (timing.kind === 'hold') return timing;
    if (timing.kind === 'fail') return { kind: 'fail', err: engineError('invalid_input', timing.message) };
  }
  const src = cap.sourceFile(payload);
  if (src) {
    const problem = await verifySource(src, origin);
    if (problem) return { kind: 'fail', err: problem };
  }
  return { kind: 'send', payload, src, recipient: recipient ?? null };
}
