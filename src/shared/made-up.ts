// A result its API made up (docs/api-assumptions.md A21): the built-in sandbox invents what it
// cannot do (a transcript of a recording it did not listen to, a summary, a voice, an image) and
// says so in its answer; Batchdesk keeps that mark in the stored result as `sandbox: true`, and
// every view and export of the result says it. A real API's results never carry it.

/** What a batch sent to the built-in sandbox remembers as where it was sent (BatchSummary.sent_to). */
export const EMBEDDED_SANDBOX = 'embedded sandbox';

/** The stored result's field. */
export const MADE_UP_FIELD = 'sandbox';

/** True when the stored result is marked as made up. */
export function isMadeUp(result: unknown): boolean {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && (result as Record<string, unknown>)[MADE_UP_FIELD] === true;
}

/** What a made-up result is, in words, wherever one is shown or exported. */
export const MADE_UP_WORDS =
  'Made up by the built-in sandbox, not a real result: the sandbox answers in place of the real API. Configure the real API to get real results.';

/** The same in a few words, where a line is short (a subtitle, a file's first line). */
export const MADE_UP_SHORT = 'Made up by the built-in sandbox, not a real result';
