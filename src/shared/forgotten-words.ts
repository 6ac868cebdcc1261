// How a recipient who asked to be forgotten (`batchdesk forget`) is named wherever their opt-out
// shows: the list keeps only a keyed hash of them, which is never shown. The engine writes these
// words into a skipped job's reason; the window recognises them to say it in its own language.

/** The English name of a forgotten, still opted-out recipient. */
export const FORGOTTEN_RECIPIENT = 'a recipient who asked to be forgotten (stays opted out)';

/** True for a stored reason that names a forgotten recipient. */
export function namesForgottenRecipient(text: string): boolean {
  return text.includes(FORGOTTEN_RECIPIENT);
}
