// A new batch's default name in the window's language, from the parts the engine worked out
// (shared/capabilities/batch-name.ts): "Anrufe 26 Nov (300 Aufnahmen)". The window names the batch
// with it when the name field is left empty; a name the user typed is sent as typed.
import { groupNounOf, type BatchNameParts, type ItemNoun } from '../../../shared/capabilities/batch-name';
import { formatLocale, i18n } from '../i18n';
import { formatCount } from '../format/time';

/** `lng`: another language than the window's (the tests say both). */
export function itemCountWords(noun: ItemNoun, n: number, lng?: string): string {
  // A key built from the closed noun list: test/unit/renderer/batch-name-words.test.ts checks each.
  return i18n.t(`newBatch:defaultName.count.${noun}` as 'newBatch:defaultName.count.scan', { count: n, n: formatCount(n), ...(lng ? { lng } : {}) });
}

/** A batch's name is at most 200 characters (the contract's bound). */
export function localBatchName(parts: BatchNameParts, lng?: string): string {
  return sayName(parts, lng).slice(0, 200);
}

/** "26 Nov", "26. Nov.", "Nov 26": a day as the OS's locale writes it short (`locale`: another, for the tests). */
export function shortDay(day: string, locale = formatLocale()): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
}

function sayName(parts: BatchNameParts, lng?: string): string {
  const counts = parts.counts.map((c) => itemCountWords(c.noun, c.n, lng)).join(', ');
  const opts = lng ? { lng } : {};
  if (parts.day !== null) {
    // Several files dropped: what they are and the day, not the first file's name.
    const group = i18n.t(`newBatch:defaultName.group.${groupNounOf(parts)}` as 'newBatch:defaultName.group.scan', opts);
    return i18n.t('newBatch:defaultName.dated', { group, day: shortDay(parts.day), counts, ...opts });
  }
  if (parts.what === null) return `${counts.charAt(0).toUpperCase()}${counts.slice(1)}`;
  return parts.more > 0
    ? i18n.t('newBatch:defaultName.namedMore', { what: parts.what, more: formatCount(parts.more), counts, ...opts })
    : i18n.t('newBatch:defaultName.named', { what: parts.what, counts, ...opts });
}
