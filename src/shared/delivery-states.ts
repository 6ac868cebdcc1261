// The delivery states a channel's provider answers with (docs/api-assumptions.md A5): words of the
// provider, not text to show. One list for the window's words, the spreadsheet export's words and
// the engine's states that count as sent; a state not listed is shown as the provider's own word.
export const DELIVERY_STATES = ['accepted', 'queued', 'sent', 'delivered', 'read', 'failed', 'undelivered', 'rejected', 'blocked'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

const KNOWN: ReadonlySet<string> = new Set(DELIVERY_STATES);
export const isDeliveryState = (s: string): s is DeliveryState => KNOWN.has(s);
