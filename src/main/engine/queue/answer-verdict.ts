// What an API answer means for its job, decided once for both runners (the local one and a team
// worker on the shared store): a success with its units, cost and result, an error the taxonomy
// acts on (error-action.ts), or a failure that must not be retried (the file changed mid-upload).
// Pure: the caller writes the outcome in its own store.
import type { ApiResponse, Credential } from '../api/request';
import type { ResolvedKey } from '../secrets/key-manager';
import type { BatchContext, CapabilityModule } from '../capabilities/capability';
import type { LeasedJob } from './job-row';
import type { BatchRow } from './batch-store';
import type { RateBook } from '../costs/rate-book';
import type { SourceRef } from './verify-source';
import { newVersionAdvice, type SourceOrigin } from './changed-file-advice';
import { CHANGED_UPLOADING_WORDS } from './stored-notes';
import { answerWords, classifyResponse } from '../api/classify-response';
import { storedBody } from '../api/stored-body';
import { answerMadeUp, markedResult } from '../api/made-up-answer';
import { costOf } from '../costs/rate-book';
import { ENV_VAR } from '../secrets/key-manager';
import { labelOfKeyId } from '../secrets/key-choice';
import { engineError, type EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';
import { Tallies } from '../privacy/redact-values';

export type AnswerVerdict =
  | { kind: 'succeeded'; units: number; cost: number; resultJson: string; raw: string; vector?: Float32Array }
  /** An error the taxonomy decides about (retry, pause, fail). */
  | { kind: 'error'; err: EngineError; raw: string | null }
  /** Failed at once, never retried. */
  | { kind: 'failed'; err: EngineError; raw: string | null };

/** What to do about a key the API refused, by where the key came from. */
export function howToReplace(kind: Credential, key: ResolvedKey): string {
  switch (key.source) {
    case 'env':
      return `the key comes from ${ENV_VAR[kind]}: set it to a valid key`;
    case 'keychain': {
      // The stored label, so the command can be pasted as it is.
      const label = key.id === null ? 'NAME' : labelOfKeyId(key.id);
      return key.baseUrl === null
        ? `replace it (in the window: Keys & rates, Replace; on the command line: \`batchdesk keys add --kind ${kind} --label ${label}\`), or, if it is a key of another API, store it with that API's address (\`batchdesk keys add --kind ${kind} --label ${label} --api-url URL\`)`
        : `replace it, or store it with its API's right address (in the window: Keys & rates, Replace; on the command line: \`batchdesk keys add --kind ${kind} --label ${label} --api-url URL\`)`;
    }
    case 'sandbox':
      return 'the embedded sandbox refused its own key: restart Batchdesk so the sandbox issues a new one';
    default:
      return assertNever(key.source, 'key source');
  }
}

export interface AnswerContext<P> {
  response: ApiResponse;
  job: LeasedJob;
  batch: Pick<BatchRow, 'id' | 'tier'>;
  cap: CapabilityModule<P>;
  payload: P;
  ctx: BatchContext;
  /** The source file as checked before sending, if the job uploads one. */
  src: SourceRef | null;
  /** Where the item's file came from: what to do about a file that changed mid-upload differs. */
  origin: SourceOrigin;
  key: ResolvedKey;
  /** Where it was sent, in words (api/destination.ts destinationWords): a refusal names it. */
  api: string;
  /** Every secret the process knows: none may be copied from a server's text into storage. */
  secrets: readonly string[];
  rates: RateBook;
  now: number;
}

export function judgeAnswer<P>(a: AnswerContext<P>): AnswerVerdict {
  const { response, cap } = a;
  // A saved answer (audio, an image) is on disk, not in the database: only a line about it is kept.
  const raw = response.saved
    ? `[${response.headers.get('content-type') ?? 'binary'} answer, ${response.saved.bytes.toLocaleString('en')} bytes, saved as outputs/${a.batch.id}/${response.saved.name}]`
    : storedBody(response, a.secrets);
  const credential = cap.descriptor.credential;
  const err = classifyResponse(response, a.now, credential, { label: a.key.label, api: a.api, howToReplace: howToReplace(credential, a.key) }, a.secrets);
  if (err) return { kind: 'error', err, raw };
  if (a.src && response.uploadedSha256 !== null && response.uploadedSha256 !== a.src.sha256) {
    const changed = engineError(
      'invalid_input',
      `${a.src.path}: ${CHANGED_UPLOADING_WORDS}; the API's answer is kept but may not match the file. ${newVersionAdvice(a.src.path, a.origin)}`,
      { httpStatus: response.status },
    );
    return { kind: 'failed', err: changed, raw };
  }
  const parsed = response.truncated
    ? {
        ok: false as const,
        error: engineError('bad_response', `The answer is larger than Batchdesk reads for one item (over ${response.bodyBytes.toLocaleString('en')} bytes).`, {
          httpStatus: response.status,
        }),
      }
    : cap.parseResponse(response, a.payload, a.job.estimated_units, a.ctx);
  // A capability's refusal quotes the answer (a proxy's page, a refused send's reason).
  if (!parsed.ok)
    return {
      kind: 'error',
      err: {
        ...parsed.error,
        message: answerWords(parsed.error.message, a.secrets),
        code: parsed.error.code === null ? null : answerWords(parsed.error.code, a.secrets),
      },
      raw,
    };
  const cost = costOf(parsed.units, a.rates.rate(cap.descriptor.rateItem(a.ctx.channel), a.batch.tier));
  // An answer the API made up (the sandbox's) stays marked in the stored result, so no view or export passes it off as real.
  const stored = storedRedacted(parsed.result, raw, a.ctx, cap.descriptor.input.kind === 'files');
  const result = markedResult(stored.result, answerMadeUp(response));
  return {
    kind: 'succeeded',
    units: parsed.units,
    cost,
    resultJson: JSON.stringify(result),
    raw: stored.raw,
    ...(parsed.vector ? { vector: parsed.vector } : {}),
  };
}

/**
 * A transcript or OCR text as it is stored when the batch redacts the stored copy too
 * (`redactStored`): every string of the result and the kept answer body redacted, the tally in
 * the result (`redacted`). Otherwise the local copy stays complete.
 */
export function storedRedacted(result: unknown, raw: string, ctx: BatchContext, fromFiles: boolean): { result: unknown; raw: string } {
  const kinds = ctx.options.redact;
  if (!fromFiles || ctx.options.redactStored !== true || kinds === undefined || kinds.length === 0) return { result, raw };
  const tallies = new Tallies(kinds, 'stored');
  const redacted = tallies.json(result, '');
  // The answer body is kept for the audit; its copy of the text goes the same way (not tallied twice).
  const body = new Tallies(kinds, 'stored').text('answer', raw);
  const list = tallies.list();
  if (list.length === 0 || typeof redacted !== 'object' || redacted === null || Array.isArray(redacted)) return { result: redacted, raw: body };
  return { result: { ...redacted, redacted: list }, raw: body };
}
