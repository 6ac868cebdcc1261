// A channel as people name it: the engine and the API use the lowercase path segment
// ("whatsapp", "voice", "email"); the window says "WhatsApp" (a brand, as its maker writes it)
// or "Sprachanruf". A messaging app the window does not know keeps the name the user typed.
import { exists, t } from '../i18n';

/** The channels the catalogue names (common:channelName.*). */
export const NAMED_CHANNELS = ['whatsapp', 'sms', 'telegram', 'signal', 'messenger', 'viber', 'line', 'wechat', 'imessage', 'rcs', 'voice', 'email'] as const;

export function channelWords(channel: string): string {
  const key = `common:channelName.${channel.trim().toLowerCase()}`;
  // Keys built from the engine's value: NAMED_CHANNELS and the catalogue test keep them in step.
  return exists(key) ? t(key as 'common:channelName.whatsapp') : channel;
}
