// A batch's options in its header: redaction is said in the window's language (its kinds through
// the catalogue); other options are the batch's own values, as the command line takes them.
import type { BatchSummary } from '../../../shared/domain';
import { PersonalDataKind } from '../../../shared/privacy-kinds';
import { formatLocale, t } from '../i18n';

/** "redacts cards, IBAN" / "schwärzt Karten, IBAN", each kind through the catalogue. */
function redactWords(kinds: readonly unknown[], stored: boolean): string {
  const words = kinds.map((k) => {
    const kind = PersonalDataKind.safeParse(k);
    return kind.success ? t(`jobs:redaction.kind.${kind.data}`) : String(k);
  });
  const list = new Intl.ListFormat(formatLocale(), { type: 'conjunction', style: 'narrow' }).format(words);
  return t(stored ? 'batch:summary.redactsStored' : 'batch:summary.redacts', { kinds: list });
}

/** "task summary · redacts cards, IBAN": the options the batch was created with. */
export function batchOptionsText(b: Pick<BatchSummary, 'options'>): string {
  const stored = b.options.redactStored === true;
  return Object.entries(b.options)
    .flatMap(([k, v]) => {
      if (k === 'redactStored') return [];
      if (k === 'redact' && Array.isArray(v)) return [redactWords(v, stored)];
      return [`${k} ${Array.isArray(v) ? v.join(', ') : String(v)}`];
    })
    .join(' · ');
}
