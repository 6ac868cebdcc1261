// A batch's options in its header, in the window's language: redaction's kinds through the
// catalogue, other options by their field's name and a choice by its name; typed values as typed.
import type { BatchSummary } from '../../../shared/domain';
import { PersonalDataKind } from '../../../shared/privacy-kinds';
import { formatLocale, t } from '../i18n';
import { storedOptionWords } from '../format/option-words';

/** "redacts cards, IBAN" / "schwärzt Karten, IBAN", each kind through the catalogue. */
function redactWords(kinds: readonly unknown[], stored: boolean): string {
  const words = kinds.map((k) => {
    const kind = PersonalDataKind.safeParse(k);
    return kind.success ? t(`jobs:redaction.kind.${kind.data}`) : String(k);
  });
  const list = new Intl.ListFormat(formatLocale(), { type: 'conjunction', style: 'narrow' }).format(words);
  return t(stored ? 'batch:summary.redactsStored' : 'batch:summary.redacts', { kinds: list });
}

/** "Task: Summary · redacts cards, IBAN": the options the batch was created with. */
export function batchOptionsText(b: Pick<BatchSummary, 'options'>): string {
  const stored = b.options.redactStored === true;
  return Object.entries(b.options)
    .flatMap(([k, v]) => {
      if (k === 'redactStored') return [];
      if (k === 'redact' && Array.isArray(v)) return [redactWords(v, stored)];
      return [storedOptionWords(k, Array.isArray(v) ? v.join(', ') : String(v))];
    })
    .join(' · ');
}
