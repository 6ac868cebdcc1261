// The English sentence of every coded import problem, in one place: what the command line prints
// and what a problem's `message` holds. The window says the same codes in its own language.
import { assertNever } from './domain';
import type { ProblemCode } from './problem-codes';

const EXAMPLE_PHONE = 'for example +44 20 7946 0123';

export function delimiterWord(d: string): string {
  return d === '\t' ? 'tab' : `"${d}"`;
}

/** A recipient's problem without its row (as messaging/recipient.ts gives it). */
export function recipientEnglish(
  c: Extract<ProblemCode, { code: 'recipient_is_email' | 'phone_not_international' | 'phone_invalid' | 'email_invalid' }>,
): string {
  switch (c.code) {
    case 'recipient_is_email':
      return `"${c.value}" is an e-mail address, and this channel sends to phone numbers; send this file with --channel email (in the window: Channel, Email), or write the recipient's number as +<country code><number>.`;
    case 'phone_not_international':
      return `phone number "${c.value}" is not in international format; ${c.plus !== null ? `replace the leading 00 with + (${c.plus})` : `write it as +<country code><number>, ${EXAMPLE_PHONE}`}.`;
    case 'phone_invalid':
      return `phone number "${c.value}" is not a valid number for its country code; check the digits and write it as +<country code><number>, ${EXAMPLE_PHONE}.`;
    case 'email_invalid':
      return `e-mail address "${c.value}" is not valid; write it as name@example.com.`;
    default:
      return assertNever(c, 'recipient problem');
  }
}

function unsupportedEnglish(path: string, c: Extract<ProblemCode, { code: 'file_unsupported' }>): string {
  const transcribe = c.capability === 'transcribe';
  if (c.found === 'none') {
    const fix = transcribe ? 'Convert the recording to one of these formats' : 'Save or scan it as PDF, PNG, JPEG or TIFF';
    return `${path} is not in a supported format: its content is none of ${c.accepted}. ${fix}, or leave it out.`;
  }
  const found =
    c.found === 'audio'
      ? `an audio file (${c.ext ?? ''})`
      : c.found === 'pdf'
        ? 'a PDF document'
        : c.found === 'xml'
          ? 'an XML file (an e-invoice?)'
          : `an image (${c.ext ?? ''})`;
  const what = transcribe ? 'Transcription accepts audio' : 'OCR accepts documents and scans';
  const other = transcribe ? 'Start an OCR batch for documents' : 'Start a transcription batch for recordings';
  return `${path} is ${found}, but ${what} only (${c.accepted}). ${other}, or leave this file out.`;
}

const RESEND_HINT = 'To do it again anyway: --allow-resend (in the window: "Include items already sent or queued").';

function alreadyQueuedEnglish(source: string, row: number | null, c: Extract<ProblemCode, { code: 'already_queued' }>): string {
  const item = c.unit === 'file' ? source : `${c.unit === 'line' ? 'Line' : 'Row'} ${row}`;
  // An earlier batch nobody started is why nothing is sent: say how to send it.
  const state = c.state === 'done' ? 'already done' : c.state === 'not_started' ? `not started yet: \`batchdesk run ${c.batch}\` sends it` : 'not done yet';
  const as = c.as === null ? '' : `, as ${c.as}`;
  return `${item}: ${c.same} in batch ${c.batch} ("${c.name}", created ${c.created}${as}: ${state}); not added, so it is not ${c.messages ? 'sent' : 'done and paid for'} twice. ${RESEND_HINT}`;
}

/** `source`: the file as the problem names it (a path); `row`: the CSV row, for a row's problem. */
export function problemEnglish(source: string, row: number | null, c: ProblemCode): string {
  switch (c.code) {
    case 'row_fields': {
      const d = delimiterWord(c.delimiter);
      return `Row ${row} has ${c.fields} fields but the header has ${c.columns} columns. Check for a missing or extra ${d}; a value that contains ${d} must be in double quotes.`;
    }
    case 'to_empty':
      return `Row ${row}: the "to" column is empty; add the recipient's ${c.email ? 'e-mail address' : 'phone number (+<country code><number>)'} or delete the row.`;
    case 'recipient_is_email':
    case 'phone_not_international':
    case 'phone_invalid':
    case 'email_invalid':
      return `Row ${row}: ${recipientEnglish(c)}`;
    case 'text_empty':
      return `Row ${row}: the "text" column is empty; write the message or delete the row.`;
    case 'text_too_long':
      return `Row ${row}: the text is ${c.length} characters long (after filling placeholders); the limit is ${c.limit}. Shorten it or split it into two rows.`;
    case 'duplicate_row':
      return `Row ${row} duplicates row ${c.first} (same recipient ${c.to} and same text); skipped, so the message is sent once. Delete the row, or change its text if a second message is intended.`;
    case 'opt_out_marked':
      return `Row ${row}: ${c.column} is "${c.value}", so ${c.recipient} goes on the opt-out list and is not sent anything; skipped.`;
    case 'opt_out_unclear':
      return `Row ${row}: ${c.column} is "${c.value}", which is neither yes nor no, so this row is held back rather than risk messaging someone who opted out; skipped. Write yes or no (empty is no) and create the batch again.`;
    case 'opt_out_in_file':
      return `Row ${row}: ${c.recipient} opted out (${c.from}); skipped.`;
    case 'opt_out_listed': {
      const again = `If they asked to hear from you again: \`batchdesk optout remove ${c.recipient}\`.`;
      return c.forgotten
        ? `Row ${row}: ${c.recipient}: this recipient asked to be forgotten and stays opted out (on the opt-out list since ${c.since}); skipped. ${again}`
        : `Row ${row}: ${c.recipient} is on the opt-out list (since ${c.since}, from ${c.from}); skipped. ${again}`;
    }
    case 'already_queued':
      return alreadyQueuedEnglish(source, row, c);
    case 'file_empty':
      return `${source} is empty (0 bytes), so there is nothing to send. Check that it was saved or copied completely, or leave it out.`;
    case 'file_unsupported':
      return unsupportedEnglish(source, c);
    case 'file_duplicate':
      return `${source} is a duplicate of ${c.first} (identical content); skipped, so it is not processed and billed twice. Remove one of the copies if this is not what you expected.`;
    case 'more_problems':
      return `…and ${c.dropped.toLocaleString('en')} more problems like these (only the first ${c.limit.toLocaleString('en')} are listed). Fix the ones above and import again to see the rest.`;
    default:
      return assertNever(c, 'problem code');
  }
}

/** A problem as the engine hands it on: its English sentence and its code. */
export function codedProblem(
  source: string,
  row: number | null,
  code: ProblemCode,
): { source: string; row: number | null; message: string; code: ProblemCode } {
  return { source, row, message: problemEnglish(source, row, code), code };
}
