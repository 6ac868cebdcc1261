// A new batch's default name in the window's language, from the parts the engine worked out
// (shared/capabilities/batch-name.ts): "Anrufe 26 Nov (300 Aufnahmen)". The window names the batch
// with it when the name field is left empty; a name the user typed is sent as typed.
import type { BatchNameParts, ItemNoun } from '../../../shared/capabilities/batch-name';
import { i18n } from '../i18n';
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

function sayName(parts: BatchNameParts, lng?: string): string {
  const counts = parts.counts.map((c) => itemCountWords(c.noun, c.n, lng)).join(', ');
  const opts = lng ? { lng } : {};
  if (parts.what === null) return `${counts.charAt(0).toUpperCase()}${counts.slice(1)}`;
  return parts.more > 0
    ? i18n.t('newBatch:defaultName.namedMore', { what: parts.what, more: formatCount(parts.more), counts, ...opts })
    : i18n.t('newBatch:defaultName.named', { what: parts.what, counts, ...opts });
}
