// The job dialog's lines about redaction, from a job's tallies: grouped by where (sent on, or the
// stored copy), one line per field and kind. Words only, never a value (the engine keeps none).
import { PLACEHOLDERS } from '../../../shared/privacy-kinds';
import type { RedactionTally } from '../../../shared/redaction-tally';

export const REDACTION_WHERE: Record<RedactionTally['where'], string> = {
  sent: 'Taken out of what this item sends on',
  stored: 'Taken out of the stored copy (search and export)',
};

/** "fields.phone" -> 'field "phone"'; "input" -> "input". */
function fieldName(field: string): string {
  return field.startsWith('fields.') ? `field "${field.slice('fields.'.length)}"` : field;
}

export interface RedactionGroup {
  where: RedactionTally['where'];
  heading: string;
  lines: { key: string; text: string }[];
}

export function redactionGroups(tallies: readonly RedactionTally[]): { total: number; groups: RedactionGroup[] } {
  const groups = (['sent', 'stored'] as const)
    .map((where) => ({
      where,
      heading: REDACTION_WHERE[where],
      lines: tallies
        .filter((t) => t.where === where)
        .map((t) => ({ key: `${t.field}-${t.kind}`, text: `${t.count} × ${PLACEHOLDERS[t.kind]} (${t.kind}) in ${fieldName(t.field)}` })),
    }))
    .filter((g) => g.lines.length > 0);
  return { total: tallies.reduce((n, t) => n + t.count, 0), groups };
}
