// A rate item's name in the window's language: the item is the code (shared/rates.ts), the
// catalogue says it (the compiler asks for a word when a descriptor brings a new item).
import type { RateItem } from '../../../shared/rates';
import { t } from '../i18n';

const ITEM_KEYS = {
  transcribe: 'transcribe',
  ocr: 'ocr',
  'channel.messaging': 'channelMessaging',
  'channel.voice': 'channelVoice',
  'channel.email': 'channelEmail',
  tts: 'tts',
  text: 'text',
  image: 'image',
  embeddings: 'embeddings',
  crm: 'crm',
} as const satisfies Record<RateItem, string>;

export function rateItemWords(item: string): string {
  if (!Object.hasOwn(ITEM_KEYS, item)) return item;
  return t(`keys:rateItem.${ITEM_KEYS[item as RateItem]}`);
}
