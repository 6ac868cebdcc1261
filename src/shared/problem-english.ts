// The English sentence of every coded import problem, in one place: what the command line prints
// and what a problem's `message` holds. The window says the same codes in its own language.
import { assertNever } from './domain';
import type { ProblemCode, ProblemCodeName } from './problem-codes';

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

function listed(names: readonly string[]): string {
  return names.length > 0 ? names.map((n) => `"${n}"`).join(', ') : 'none';
}

/** A file system's refusal of a file or folder, worded the same by every importer. */
function ioEnglish(path: string, c: Extract<ProblemCode, { code: 'io_failed' }>): string {
  const what = c.what;
  const said = ((): string => {
    switch (c.errno) {
      case 'ENOENT':
        return `${path} does not exist (it may have been moved, renamed or deleted). Check the path, or choose the ${what} again.`;
      case 'EACCES':
        return `${path} cannot be read: permission denied. Give your user read access to this ${what} (for example chmod ${what === 'folder' ? 'u+rx' : 'u+r'}), or copy it to a folder you own and choose the copy.`;
      case 'EISDIR':
        return `${path} is a folder where a file was expected. Choose the folder itself or the files inside it.`;
      case 'ENOTDIR':
        return `${path} could not be read because part of the path is not a folder. Check the path and choose the ${what} again.`;
      case 'ELOOP':
        return `${path} is a link that points back to itself (a link loop). Fix or delete the link.`;
      case 'other':
        return `${path} could not be read (${c.detail}). Check that the disk is connected and the ${what} is intact, then try again.`;
      default:
        return assertNever(c.errno, 'io cause');
    }
  })();
  return c.notImported ? `${said} Its files were not imported.` : said;
}

function placeholderEnglish(row: number | null, c: Extract<ProblemCode, { code: 'placeholder_bad' }>): string {
  const extras = c.extras.length > 0 ? c.extras.join(', ') : 'none';
  const why =
    c.why === 'reserved'
      ? `the "${c.name}" column cannot be a placeholder; use one of the extra columns (${extras}) or add a column.`
      : c.why === 'no_column'
        ? `there is no column "${c.name}" (extra columns: ${extras}); add the column or fix the placeholder.`
        : `the "${c.name}" column is empty in this row; fill it in, or remove the placeholder.`;
  return `Row ${row}: the ${c.part} uses ${c.placeholder}, but ${why}`;
}

function notRegularEnglish(path: string, expect: 'media' | 'rows' | 'csv' | 'walk'): string {
  switch (expect) {
    case 'media':
      return `${path} is not a regular file (it is a folder, device or pipe), so it cannot be read as a recording or document. Choose the files themselves.`;
    case 'rows':
      return `${path} is a folder. Choose a .csv or .txt file.`;
    case 'csv':
      return `${path} is a folder, not a CSV file. Choose the .csv file itself.`;
    case 'walk':
      return `${path} is not a regular file or folder (a device, socket or pipe); skipped. Choose ordinary files only.`;
    default:
      return assertNever(expect, 'expected entry');
  }
}

function noItemsEnglish(source: string, c: Extract<ProblemCode, { code: 'rows_none' }>): string {
  switch (c.why) {
    case 'empty':
      return `${source} is empty. Give one ${c.what} per line (.txt) or a CSV with a "${c.column ?? 'header'}" column.`;
    case 'blank':
      return `${source} holds only blank lines. It needs a header row, then one row per item.`;
    case 'no_items':
      return `${source} has no items. Add one ${c.what} per ${c.csv ? 'row' : 'line'}, or choose another file.`;
    default:
      return assertNever(c.why, 'no items');
  }
}

/** The rarer causes: CSV structure, files and folders, a team's refusals. */
function rarerEnglish(source: string, row: number | null, c: RarerCode): string {
  switch (c.code) {
    case 'csv_quote_open':
      return `${c.header ? 'The header row' : `Row ${row}`} opens a double quote (") that is never closed, so everything after it up to the end of the file was read as one value and not imported. Add the missing closing quote.`;
    case 'csv_cell_long':
      return `${c.header ? 'The header row' : `Row ${row}`} has a cell longer than ${c.limit.toLocaleString('en')} characters (more than a spreadsheet cell holds), so it was not imported. Check for a missing closing quote (") before this row, or shorten the cell.`;
    case 'csv_cells_shifted':
      return `Row ${row} has ${c.cells} cells but the header names ${c.columns} columns, so its cells are shifted (probably a delimiter inside an unquoted cell); not imported. Put that cell in double quotes.`;
    case 'header_twice':
      return `${source}: the header row names the column "${c.name}" twice (columns ${c.first} and ${c.second}), so it is unclear which to use. Rename or delete one of them; nothing was imported.`;
    case 'header_no_message_columns':
      return (
        `${source}: the header row (row ${row}) has no ${c.missing.map((m) => `"${m}"`).join(' and ')} column (columns found: ${listed(c.found)}). ` +
        'The first row must name the columns; "to" holds the recipient (also read under names such as phone, mobile, email, Telefon, Handy) and "text" the message (message, Nachricht). Rename your columns or add them; nothing was imported.'
      );
    case 'header_which_column':
      return `${source}: the header row (row ${row}) has ${c.names.length} columns that could each be "${c.column}" (${listed(c.names)}); which one is meant is not guessed. Rename the one to use to "${c.column}"; nothing was imported.`;
    case 'header_no_column':
      return `The header row has no "${c.column}" column (columns found: ${listed(c.found)}). The first row must name the columns, with the ${c.what} in "${c.column}"; or use a .txt file with one item per line. Nothing was imported.`;
    case 'opt_out_unread':
      return `Row ${row} also says ${c.column} "${c.value}", but because the row cannot be read its recipient is NOT on the opt-out list. Fix the row and create the batch again, or add them with \`batchdesk optout add\`.`;
    case 'placeholder_bad':
      return placeholderEnglish(row, c);
    case 'timezone_bad':
      return `Row ${row}: ${c.column} "${c.value}" is not a time zone name; write an IANA name such as Europe/Berlin or America/New_York, or leave the cell empty to use the phone number's country.`;
    case 'csv_no_messages':
      return c.why === 'no_rows'
        ? `${source} has a header row but no messages below it. Add one row per message, or choose another file.`
        : `${source} ${c.why === 'empty' ? 'is empty' : 'holds only blank lines'}. It needs a header row naming the columns "to" and "text", then one row per message.`;
    case 'rows_none':
      return noItemsEnglish(source, c);
    case 'not_utf8':
      if (c.utf16) return `${source} is saved as UTF-16 ("Unicode text"), not UTF-8. Save it again as "CSV UTF-8 (comma delimited)" and import that file.`;
      return `${source} is not valid UTF-8 text (first bad byte after byte ${c.byte}); accented letters would be garbled in the messages. Save it again as "CSV UTF-8" and import that file.`;
    case 'io_failed':
      return ioEnglish(source, c);
    case 'check_failed':
      return `${source} could not be checked (${c.detail}), so it was left out. Check that it opens in another program; if it does, save a fresh copy and add that, otherwise leave it out.`;
    case 'not_regular':
      return notRegularEnglish(source, c.expect);
    case 'file_changed':
      return `${source} changed while it was being read (${c.expected} bytes expected, ${c.read} read). Wait until it has finished copying or recording, then add it again.`;
    case 'file_broken':
      return `${source} ${c.cause}. ${c.fix}`;
    case 'row_repeat': {
      const unit = c.unit === 'line' ? 'Line' : 'Row';
      return `${unit} ${row} repeats ${c.unit} ${c.first} exactly; skipped, so it is processed and paid for once. Delete one of them if this is not what you expected.`;
    }
    case 'line_too_long':
      return `Line ${row} is longer than ${c.limit.toLocaleString('en')} characters, so it was not imported. Split it, or use a CSV.`;
    case 'item_refused':
      return `${c.unit === 'file' ? source : `${c.unit === 'line' ? 'Line' : 'Row'} ${row}`}: ${c.said}; skipped.`;
    case 'folder_loop':
      return `${source} links back to ${c.ancestor}, which contains it (a folder loop); the link was not followed. The files in ${c.ancestor} are imported once; remove the link if it is not needed.`;
    case 'chosen_twice':
      return `${source} was chosen more than once (directly or inside a chosen folder); ${c.folder ? 'its files are' : 'it is'} imported once.`;
    case 'same_as':
      return c.folder
        ? `${source} is the same folder as ${c.first}, which is already included; its files are imported once.`
        : `${source} is a link to the same file as ${c.first}; skipped, so it is processed and billed once.`;
    case 'link_broken':
      return `${source} is a link to something that no longer exists; skipped. Fix or delete the link.`;
    case 'hidden_skipped': {
      const counted = [
        c.files > 0 ? `${c.files.toLocaleString('en')} hidden file(s)` : null,
        c.folders > 0 ? `${c.folders.toLocaleString('en')} hidden folder(s)` : null,
      ]
        .filter((x) => x !== null)
        .join(' and ');
      return `${source}: skipped ${counted} (names starting with ".", such as "${c.first}": system, sync and backup files${c.folders > 0 ? '; what is inside a hidden folder is not looked at' : ''}). To import a hidden file, choose it by name.`;
    }
    case 'follow_up_exists':
      return `Batch ${c.parent} already has a follow-up doing the same (${c.id}, "${c.name}"): its items go there, so they are not done and paid for twice. To make another anyway: --allow-resend (in the window: "Include items already sent or queued").`;
    case 'step_item_refused':
      return c.said;
    case 'team_has':
      return `${source}: already in the team's batch ${c.batch} (${c.name}, ${c.state}); ${c.todo}`;
    default:
      return assertNever(c, 'problem code');
  }
}

/** The codes said by rarerEnglish. */
export const RARER_CODES = [
  'csv_quote_open',
  'csv_cell_long',
  'csv_cells_shifted',
  'header_twice',
  'header_no_message_columns',
  'header_which_column',
  'header_no_column',
  'opt_out_unread',
  'placeholder_bad',
  'timezone_bad',
  'csv_no_messages',
  'rows_none',
  'not_utf8',
  'io_failed',
  'check_failed',
  'not_regular',
  'file_changed',
  'file_broken',
  'row_repeat',
  'line_too_long',
  'item_refused',
  'folder_loop',
  'chosen_twice',
  'same_as',
  'link_broken',
  'hidden_skipped',
  'follow_up_exists',
  'step_item_refused',
  'team_has',
] as const satisfies readonly ProblemCodeName[];
type RarerCode = Extract<ProblemCode, { code: (typeof RARER_CODES)[number] }>;

function isRarer(c: ProblemCode): c is RarerCode {
  return (RARER_CODES as readonly string[]).includes(c.code);
}

/** `source`: the file as the problem names it (a path); `row`: the CSV row, for a row's problem. */
export function problemEnglish(source: string, row: number | null, c: ProblemCode): string {
  if (isRarer(c)) return rarerEnglish(source, row, c);
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

/** A follow-up refused because one doing the same already takes the batch's results. */
export function followUpExists(e: { parentId: string; same: { id: string; name: string } }): ReturnType<typeof codedProblem> {
  return codedProblem(e.parentId, null, { code: 'follow_up_exists', parent: e.parentId, id: e.same.id, name: e.same.name });
}
