// The job dialog's lines about redaction, from a job's tallies: grouped by where (sent on, or the
// stored copy), one line per field and kind. Words only, never a value (the engine keeps none).
import { PLACEHOLDERS } from '../../../shared/privacy-kinds';
import type { RedactionTally } from '../../../shared/redaction-tally';
import { t } from '../i18n';

/** "fields.phone" -> 'field "phone"'; "input" -> "input"; another field as it is named. */
function fieldName(field: string): string {
  if (field.startsWith('fields.')) return t('jobs:redaction.field', { name: field.slice('fields.'.length) });
  return field === 'input' ? t('jobs:redaction.input') : field;
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
      heading: t(`jobs:redaction.${where}`),
      lines: tallies
        .filter((x) => x.where === where)
        .map((x) => ({
          key: `${x.field}-${x.kind}`,
          text: t('jobs:redaction.line', {
            // A few findings per field: no thousands to group.
            n: x.count,
            placeholder: PLACEHOLDERS[x.kind],
            kind: t(`jobs:redaction.kind.${x.kind}`),
            field: fieldName(x.field),
          }),
        })),
    }))
    .filter((g) => g.lines.length > 0);
  return { total: tallies.reduce((n, x) => n + x.count, 0), groups };
}
