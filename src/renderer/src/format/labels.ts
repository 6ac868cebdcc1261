// Words for the engine's codes: job states, batch statuses, pause kinds, tiers and units, in the
// window's language (common namespace). The records read the catalogue when indexed, so every
// screen that uses them speaks the window's language.
import { JOB_STATES, PAUSE_KINDS, TIERS, DisplayBatchStatus, type JobState, type PauseKind, type Tier } from '../../../shared/domain';
import { formatLocale, t } from '../i18n';

/** A record whose values are looked up in the catalogue each time they are read. */
function wordsOf<K extends string>(keys: readonly K[], word: (k: K) => string): Readonly<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const k of keys) Object.defineProperty(out, k, { get: () => word(k), enumerable: true });
  return out;
}

export const STATE_LABEL = wordsOf<JobState>(JOB_STATES, (s) => t(`common:state.${s}`));

export const STATUS_LABEL = wordsOf<DisplayBatchStatus>(DisplayBatchStatus.options, (s) => t(`common:status.${s}`));

export const PAUSE_LABEL = wordsOf<PauseKind>(PAUSE_KINDS, (k) => t(`common:pause.${k}`));

/** How a tier is named in the window. */
export const TIER_LABEL = wordsOf<Tier>(TIERS, (tier) => t(`common:tier.${tier}`));

// The descriptors name their units in English plural (catalog.ts); the window says them by key.
const UNIT_KEYS = {
  'audio seconds': 'audioSecond',
  pages: 'page',
  messages: 'message',
  characters: 'character',
  images: 'image',
  records: 'record',
  items: 'item',
} as const;
type UnitKey = (typeof UNIT_KEYS)[keyof typeof UNIT_KEYS];

/** A unit's key from its English plural, or from its singular (rates name "audio second"). */
function unitKey(name: string): UnitKey | null {
  for (const form of [name, `${name}s`]) if (Object.hasOwn(UNIT_KEYS, form)) return UNIT_KEYS[form as keyof typeof UNIT_KEYS];
  return null;
}

/** "audio seconds" -> "audio second", for "per audio second" (an unknown unit: its English singular). */
export function unitSingular(plural: string): string {
  const key = unitKey(plural);
  if (key !== null) return t(`common:unitName.${key}`);
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

/** "Audio seconds": a unit as a column heading. */
export function unitHeading(plural: string): string {
  const key = unitKey(plural);
  if (key !== null) return t(`common:unitHeading.${key}`);
  return plural.charAt(0).toUpperCase() + plural.slice(1);
}

/** "1,234 pages", "1 audio second", in the window's language and the OS's number format. */
export function formatUnits(n: number, plural: string): string {
  const rounded = n.toLocaleString(formatLocale(), { maximumFractionDigits: Number.isInteger(n) ? 0 : 1 });
  const key = unitKey(plural);
  if (key !== null) return t(`common:units.${key}`, { count: n, n: rounded });
  return `${rounded} ${n === 1 ? unitSingular(plural) : plural}`;
}

/** The last path segment, for either separator. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
