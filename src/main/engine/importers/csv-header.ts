// Reads the header row of a message CSV: which column is `to`, `text`, `subject`, and which are
// extra columns available as {{placeholders}}. Names are trimmed and matched case-insensitively.
// A shop's export names them its own way ("Telefon", "Handy", "Nachricht"): a column of one of the
// other names below is read as the column, when it is the only one; two such columns (Telefon and
// Handy) are refused, naming both, rather than one guessed.
import type { ImportProblem, MessageChannelKind } from './types';
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import type { PlaceholderColumns } from './placeholders';
import { TIMEZONE_COLUMN } from '../messaging/recipient-zone';
import { OPT_OUT_COLUMN } from '../messaging/opt-out-list';

export interface CsvHeader {
  /** Trimmed names as written, one per column ('' for a column without a name). */
  names: string[];
  to: number;
  text: number;
  subject: number | null;
  /** Extra columns: index and name as written. */
  extras: { index: number; name: string }[];
  /** Worked out once here, not per row: where placeholders come from (placeholders.ts). */
  placeholders: PlaceholderColumns;
  /** The first extra column naming a time zone (recipient-zone.ts), or null. */
  timezone: { index: number; name: string } | null;
  /** The first extra column marking an opt-out (opt-out-list.ts), or null. */
  optOut: { index: number; name: string } | null;
}

export const RESERVED_COLUMNS: ReadonlySet<string> = new Set(['to', 'text', 'subject']);

const PHONE_NAMES = [
  'recipient',
  'phone',
  'phone number',
  'mobile',
  'mobile number',
  'number',
  'empfänger',
  'telefon',
  'telefonnummer',
  'handy',
  'handynummer',
  'mobil',
  'mobilnummer',
  'nummer',
];
const EMAIL_NAMES = ['recipient', 'email', 'e-mail', 'email address', 'e-mail address', 'mail', 'empfänger', 'e-mail-adresse', 'mailadresse'];

/** The other names each column is read under, by the channel's kind of recipient (lower case). */
export function otherColumnNames(column: 'to' | 'text' | 'subject', kind: MessageChannelKind): readonly string[] {
  switch (column) {
    case 'to':
      return kind === 'email' ? EMAIL_NAMES : PHONE_NAMES;
    case 'text':
      return ['message', 'body', 'nachricht', 'nachrichtentext'];
    case 'subject':
      return ['betreff'];
  }
}

export function readHeader(
  fields: readonly string[],
  source: string,
  row: number,
  kind: MessageChannelKind = 'messaging',
): { ok: true; header: CsvHeader } | { ok: false; problem: ImportProblem } {
  const names = fields.map((f) => f.trim());
  const refuse = (code: ProblemCode) => ({ ok: false as const, problem: codedProblem(source, row, code) });
  const found = names.filter((n) => n !== '');

  const byKey = new Map<string, number>();
  for (const [i, n] of names.entries()) {
    if (n === '') continue;
    const key = n.toLowerCase();
    const earlier = byKey.get(key);
    if (earlier !== undefined) {
      return refuse({ code: 'header_twice', name: n, first: earlier + 1, second: i + 1 });
    }
    byKey.set(key, i);
  }
  // The column by its own name, else the one column of another name it is read under.
  const column = (c: 'to' | 'text' | 'subject'): number | undefined | { twice: string[] } => {
    const own = byKey.get(c);
    if (own !== undefined) return own;
    const also = otherColumnNames(c, kind);
    const seen = names.flatMap((n, i) => (also.includes(n.toLowerCase()) ? [i] : []));
    if (seen.length > 1) return { twice: seen.map((i) => names[i] as string) };
    return seen[0];
  };
  const to = column('to');
  const text = column('text');
  const subject = column('subject');
  for (const [c, at] of [
    ['to', to],
    ['text', text],
    ['subject', subject],
  ] as const)
    if (typeof at === 'object') return refuse({ code: 'header_which_column', column: c, names: at.twice });
  if (typeof to !== 'number' || typeof text !== 'number') {
    const missing = (['to', 'text'] as const).filter((m) => (m === 'to' ? to : text) === undefined);
    return refuse({ code: 'header_no_message_columns', missing, found });
  }
  const taken = new Set([to, text, ...(typeof subject === 'number' ? [subject] : [])]);
  const extras = names.flatMap((name, index) => (name !== '' && !taken.has(index) && !RESERVED_COLUMNS.has(name.toLowerCase()) ? [{ index, name }] : []));
  return {
    ok: true,
    header: {
      names,
      to,
      text,
      subject: typeof subject === 'number' ? subject : null,
      extras,
      placeholders: {
        byName: new Map(extras.map((e) => [e.name.toLowerCase(), e.index])),
        reserved: RESERVED_COLUMNS,
        extraList: extras.map((e) => e.name),
      },
      timezone: extras.find((e) => TIMEZONE_COLUMN.test(e.name)) ?? null,
      optOut: extras.find((e) => OPT_OUT_COLUMN.test(e.name)) ?? null,
    },
  };
}
