// Words for the engine's codes: job states, batch statuses, pause kinds, tiers and units, in the
// window's language (common namespace). The records read the catalogue when indexed, so every
// screen that uses them speaks the window's language.
// i18next itself, not ../i18n: modules the node-side tests reach (job-row-words) import these
// records, and ../i18n brings the DOM and React types into that program. ../i18n initialises this
// same instance before the window renders.
// Before ../i18n has run (those tests), the English catalogue answers.
import i18next from 'i18next';
import { JOB_STATES, PAUSE_KINDS, TIERS, DisplayBatchStatus, type JobState, type PauseKind, type Tier } from '../../../shared/domain';
import en from '../i18n/locales/en/common.json';

const t = i18next.t.bind(i18next);
const ready = (): boolean => i18next.isInitialized;

/** A record whose values are looked up in the catalogue each time they are read. */
function wordsOf<K extends string>(keys: readonly K[], word: (k: K) => string): Readonly<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const k of keys) Object.defineProperty(out, k, { get: () => word(k), enumerable: true });
  return out;
}

export const STATE_LABEL = wordsOf<JobState>(JOB_STATES, (s) => (ready() ? t(`common:state.${s}`) : en.state[s]));

export const STATUS_LABEL = wordsOf<DisplayBatchStatus>(DisplayBatchStatus.options, (s) => (ready() ? t(`common:status.${s}`) : en.status[s]));

export const PAUSE_LABEL = wordsOf<PauseKind>(PAUSE_KINDS, (k) => (ready() ? t(`common:pause.${k}`) : en.pause[k]));

/** How a tier is named in the window. */
export const TIER_LABEL = wordsOf<Tier>(TIERS, (tier) => (ready() ? t(`common:tier.${tier}`) : en.tier[tier]));

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

function unitKey(plural: string): UnitKey | null {
  return Object.hasOwn(UNIT_KEYS, plural) ? UNIT_KEYS[plural as keyof typeof UNIT_KEYS] : null;
}

/** "audio seconds" -> "audio second", for "per audio second" (an unknown unit: its English singular). */
export function unitSingular(plural: string): string {
  const key = unitKey(plural);
  if (key !== null) return ready() ? t(`common:unitName.${key}`) : en.unitName[key];
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

/** "1,234 pages", "1 audio second", in the window's language and the OS's number format. */
export function formatUnits(n: number, plural: string): string {
  // The runtime's own locale: in Chromium and Electron the OS's, as formatLocale() reads it.
  const rounded = n.toLocaleString(undefined, { maximumFractionDigits: Number.isInteger(n) ? 0 : 1 });
  const key = unitKey(plural);
  if (key !== null)
    return ready() ? t(`common:units.${key}`, { count: n, n: rounded }) : en.units[`${key}_${n === 1 ? 'one' : 'other'}`].replace('{{n}}', rounded);
  return `${rounded} ${n === 1 ? unitSingular(plural) : plural}`;
}

/** The last path segment, for either separator. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
