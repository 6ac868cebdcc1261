// Default unit rates (1/10,000 EUR per unit) used until the user enters the rates published in
// the panel. The sandbox meters with the same table. Units: docs/api-assumptions.md A11.
import type { Money } from './money';
import type { Tier } from './domain';

/** A rate item is a capability, with channels split by kind because a call costs more than an e-mail. */
export const RATE_ITEMS = [
  'transcribe',
  'ocr',
  'channel.messaging',
  'channel.voice',
  'channel.email',
  'tts',
  'text',
  'image',
  'embeddings',
  'crm',
] as const;
export type RateItem = (typeof RATE_ITEMS)[number];

export const DEFAULT_RATES: Record<RateItem, Record<Tier, Money>> = {
  transcribe: { basic: 2, standard: 4, superior: 8 }, // per audio second
  ocr: { basic: 50, standard: 100, superior: 200 }, // per page
  'channel.messaging': { basic: 50, standard: 50, superior: 50 }, // per message
  'channel.voice': { basic: 150, standard: 150, superior: 150 }, // per call
  'channel.email': { basic: 10, standard: 10, superior: 10 }, // per message
  tts: { basic: 1, standard: 2, superior: 4 }, // per character
  text: { basic: 1, standard: 3, superior: 9 }, // per input character
  image: { basic: 200, standard: 400, superior: 800 }, // per image
  embeddings: { basic: 1, standard: 1, superior: 2 }, // per character
  crm: { basic: 5, standard: 5, superior: 5 }, // per request
};

/** `voice` and `email` are fixed channel names; any other name is the messaging app (A1). */
export function channelKindOf(channel: string): 'messaging' | 'voice' | 'email' {
  if (channel === 'voice') return 'voice';
  if (channel === 'email') return 'email';
  return 'messaging';
}

