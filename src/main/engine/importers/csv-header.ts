// Reads the header row of a message CSV: which column is `to`, `text`, `subject`, and which are
// extra columns available as {{placeholders}}. Names are trimmed and matched case-insensitively.
import type { ImportProblem } from './types';
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
  const refuse = (message: string) => ({ ok: false as const, problem: { source, row, message } });
  const found = names.filter((n) => n !== '');
  const listed = found.length > 0 ? found.map((n) => `"${n}"`).join(', ') : 'none';

  const byKey = new Map<string, number>();
  for (const [i, n] of names.entries()) {
    if (n === '') continue;
    const key = n.toLowerCase();
    const earlier = byKey.get(key);
    if (earlier !== undefined) {
      return refuse(
        `${source}: the header row names the column "${n}" twice (columns ${earlier + 1} and ${i + 1}), so it is unclear which to use. Rename or delete one of them; nothing was imported.`,
      );
    }
    byKey.set(key, i);
  }
  const to = byKey.get('to');
  const text = byKey.get('text');
  const missing = [to === undefined ? '"to"' : null, text === undefined ? '"text"' : null].filter((m) => m !== null);
  if (to === undefined || text === undefined) {
    return refuse(
      `${source}: the header row (row ${row}) has no ${missing.join(' and ')} column (columns found: ${listed}). ` +
        'The first row must name the columns; "to" holds the recipient and "text" the message. Rename your columns or add them; nothing was imported.',
    );
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
        extraList: extras.map((e) => e.name).join(', ') || 'none',
      },
      timezone: extras.find((e) => TIMEZONE_COLUMN.test(e.name)) ?? null,
      optOut: extras.find((e) => OPT_OUT_COLUMN.test(e.name)) ?? null,
    },
  };
}
