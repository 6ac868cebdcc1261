// Maps an HTTP answer onto the error taxonomy (docs/api-assumptions.md A3).
import { z } from 'zod';
import { engineError, type EngineError } from '../../../shared/errors';
import { parseRetryAfter } from './retry-after';
import { redactSecrets } from '../../../shared/redact';
import { escapeControls } from '../../../shared/control-characters';
import type { ApiResponse } from './request';

const ErrorBody = z.object({ error: z.object({ code: z.string().optional(), message: z.string().optional() }) });

/**
 * Words from an answer as they may go into a message that is stored, shown and exported: every
 * known secret (and anything like one) removed, control characters made inert. The one door for
 * an API's text into Batchdesk's messages (errors here, a capability's refusal in answer-verdict.ts);
 * only the attempt's raw response keeps the bytes as they came.
 */
export function answerWords(text: string, secrets: Iterable<string> = []): string {
  return escapeControls(redactSecrets(text, secrets));
}

/** The server's own words about an error, made safe by answerWords. */
export function errorDetail(body: Buffer, secrets: Iterable<string> = []): { code: string | null; message: string | null } {
  const text = body.toString('utf8', 0, Math.min(body.length, 4096));
  const clean = (s: string | undefined): string | null => (s === undefined ? null : answerWords(s, secrets).slice(0, 500));
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) return { code: clean(parsed.data.error.code), message: clean(parsed.data.error.message) };
  } catch {
    // Not JSON: fall through and keep a short excerpt.
  }
  const excerpt = answerWords(text.replace(/\s+/g, ' ').trim(), secrets).slice(0, 200);
  return { code: null, message: excerpt || null };
}

/** The key an answer is about and the API that gave it, for a refusal's words. */
export interface KeyAsked {
  /** What the attempts show: `acme …4f2a`, `BATCHDESK_API_KEY …4f2a`. */
  label: string;
  /** Where it was sent, in words (api/destination.ts destinationWords): "the API at https://…". */
  api: string;
  /** How the user replaces this key, which depends on where it came from (env, keychain). */
  howToReplace: string;
}

/** null when the response is a success the capability should parse. */
export function classifyResponse(
  res: ApiResponse,
  nowMs: number,
  credential: 'api' | 'channel',
  /** The key sent and the API that answered; unknown: the words say "the API" and a generic way to replace it. */
  asked: KeyAsked | null = null,
  /** Secrets that must never be copied from the server's text into a message. */
  secrets: Iterable<string> = [],
): EngineError | null {
  const s = res.status;
  if (s >= 200 && s < 300) return null;
  const { code, message } = errorDetail(res.body, secrets);
  const said = message ? ` (the API said: ${message})` : '';
  const extra = { httpStatus: s, code };
  const keyName = credential === 'channel' ? 'channel key' : 'API key';

  const capLike = code !== null && /cap|quota|budget|credit|balance/i.test(code);
  if (s === 402 || (s === 403 && capLike)) {
    return engineError('quota', `The ${keyName}'s spending cap is reached${said}. Raise the cap in the panel (or top up).`, extra);
  }
  if (s === 401 || s === 403) {
    // Named with the address that refused it: a key sent to another API than its own is refused
    // there too, and "revoked" alone would send the user to replace a good key.
    const who = asked === null ? `The API refused the ${keyName}` : `${capitalised(asked.api)} refused the ${keyName} "${asked.label}"`;
    const how = asked?.howToReplace ?? `replace it (in the window: Keys & rates; on the command line: \`batchdesk keys add --kind ${credential}\`)`;
    return engineError('auth', `${who} (HTTP ${s}${code ? ` ${code}` : ''})${said}. It may be revoked or wrong, or a key of another API: ${how}.`, extra);
  }
  if (s === 429) {
    const retryAfterMs = parseRetryAfter(res.headers, nowMs);
    return engineError('rate_limited', `Request limit of the ${keyName} reached (HTTP 429); slowing down and retrying.`, { ...extra, retryAfterMs });
  }
  if (s === 409) {
    return engineError(
      'transient',
      `The API is still processing an earlier attempt with the same idempotency key (HTTP 409); retrying later with the same key.`,
      {
        ...extra,
        retryAfterMs: parseRetryAfter(res.headers, nowMs),
      },
    );
  }
  if (s === 408 || s === 425 || s >= 500) {
    return engineError('transient', `The API had a temporary problem (HTTP ${s})${said}; retrying.`, {
      ...extra,
      retryAfterMs: parseRetryAfter(res.headers, nowMs),
    });
  }
  if (s >= 300 && s < 400) {
    // A POST is not followed to another address: a redirect means the URL is not the API's own.
    const location = res.headers.get('location');
    const to = location ? ` to ${answerWords(location, secrets).slice(0, 200)}` : '';
    return engineError(
      'invalid_request',
      `The API answered HTTP ${s} (a redirect${to}) instead of an answer, so the item was not done: the API URL is probably not the API's address (http instead of https, or a path too many or missing). Check the API URL (--api-url, BATCHDESK_API_URL or the key's --api-url; in the window: Settings), then retry the failed items.`,
      extra,
    );
  }
  if (s === 413) return engineError('invalid_request', `The API refused the item as too large (HTTP 413)${said}. Split or compress the file.`, extra);
  if (s === 415) return engineError('invalid_request', `The API does not accept this file type (HTTP 415)${said}. Convert it to a supported format.`, extra);
  if (s === 422 && code === 'idempotency_key_reused') {
    return engineError(
      'invalid_request',
      `The API already saw this idempotency key with a different body (HTTP 422). The item was not sent again; if the content really changed, create a new batch for it.`,
      extra,
    );
  }
  if (s === 422 && code === 'sandbox_cannot_read') {
    // The built-in sandbox reads no pixels and makes nothing up (A21): the item is fine, the API is not the real one.
    return engineError(
      'invalid_request',
      `Not read: the built-in sandbox answers in place of a real API (HTTP 422 ${code}): ${message ?? 'it cannot read this document.'} Nothing was billed. Once the real API is configured, create a new batch of the items that failed (failed items are taken again).`,
      extra,
    );
  }
  if (s >= 400 && s < 500)
    return engineError(
      'invalid_request',
      `The API refused this item (HTTP ${s}${code ? ` ${code}` : ''})${said}. Fix the item and create a new batch for it.`,
      extra,
    );
  return engineError('internal', `Unexpected HTTP status ${s}${said}.`, extra);
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
