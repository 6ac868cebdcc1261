// The API's metering units ("audio seconds", from the capability descriptors) in the window's
// language: the descriptor's plural is the code, the catalogue says it.
import { t } from '../i18n';
import { formatCount } from '../format/time';

const UNIT_KEYS = {
  'audio seconds': 'audioSeconds',
  pages: 'pages',
  messages: 'messages',
  characters: 'characters',
  images: 'images',
  records: 'records',
} as const;

type UnitKey = (typeof UNIT_KEYS)[keyof typeof UNIT_KEYS];

function unitKey(unit: string): UnitKey | undefined {
  return Object.hasOwn(UNIT_KEYS, unit) ? UNIT_KEYS[unit as keyof typeof UNIT_KEYS] : undefined;
}

/** "1,234 audio seconds" / "1.234 Audiosekunden"; an unknown unit is shown as it came. */
export function unitCount(n: number, unit: string): string {
  const key = unitKey(unit);
  return key === undefined ? `${formatCount(n)} ${unit}` : t(`costs:unitCount.${key}`, { count: n, n: formatCount(n) });
}

/** The unit's singular, as in "EUR per audio second". */
export function unitName(unit: string): string {
  const key = unitKey(unit);
  return key === undefined ? unit : t(`costs:unitName.${key}`);
}
