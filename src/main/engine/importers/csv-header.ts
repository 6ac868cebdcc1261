// Reads the header row of a message CSV: which column is `to`, `text`, `subject`, and which are
// extra columns available as {{placeholders}}. Names are trimmed and matched case-insensitively.
import type { ImportProblem } from './types';
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

export function readHeader(fields: readonly string[], source: string, row: number): { ok: true; header: CsvHeader } | { ok: false; problem: ImportProblem } {
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
  const to = byKey.get('to');
  const text = byKey.get('text');
  if (to === undefined || text === undefined) {
    const missing = (['to', 'text'] as const).filter((m) => (m === 'to' ? to : text) === undefined);
    return refuse({ code: 'header_no_message_columns', missing, found });
  }
  const extras = names.flatMap((name, index) => (name !== '' && !RESERVED_COLUMNS.has(name.toLowerCase()) ? [{ index, name }] : []));
  return {
    ok: true,
    header: {
      names,
      to,
      text,
      subject: byKey.get('subject') ?? null,
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
