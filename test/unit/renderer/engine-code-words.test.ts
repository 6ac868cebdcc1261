// Codes the engine and the API hand over (a message's delivery state, a channel, a zone id, a
// redaction kind) are
// said in the window's language, never shown as they come: every code the engine knows has its
// words in both catalogues, and a German window says none of them in English.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { SENT_STATUSES } from '../../../src/main/engine/capabilities/channel';
import { DEFAULT_MESSAGING_CHANNEL } from '../../../src/shared/settings-rules';
import { DELIVERY_STATES, deliveryWords } from '../../../src/renderer/src/format/delivery-words';
import { channelWords, NAMED_CHANNELS } from '../../../src/renderer/src/format/channel-words';
import { zoneWords } from '../../../src/renderer/src/format/zone-words';
import { resultLine } from '../../../src/renderer/src/jobs/job-row-words';
import { fieldWords, severalOf } from '../../../src/renderer/src/format/option-words';
import { PERSONAL_DATA_KINDS } from '../../../src/shared/privacy-kinds';

describe('delivery states', () => {
  it('names every state the engine counts as sent, and the refusals, in both languages', () => {
    for (const s of SENT_STATUSES) expect(DELIVERY_STATES, s).toContain(s);
    for (const s of DELIVERY_STATES) {
      const en = inLanguage('en', 'en-GB', () => deliveryWords(s));
      const de = inLanguage('de', 'de-DE', () => deliveryWords(s));
      expect(en, s).not.toMatch(/provider says/);
      expect(de, s).not.toBe(en);
      expect(de.toLowerCase(), s).not.toContain(s);
    }
    expect(inLanguage('de', 'de-DE', () => deliveryWords('accepted'))).toBe('Angenommen');
    expect(inLanguage('de', 'de-DE', () => deliveryWords('DELIVERED'))).toBe('Zugestellt');
  });

  it("marks a state it does not know as the provider's word", () => {
    expect(inLanguage('de', 'de-DE', () => deliveryWords('pending_review'))).toBe('Laut Anbieter: „pending_review“');
    expect(inLanguage('en', 'en-GB', () => deliveryWords('other'))).toBe('As the provider says: "other"');
  });

  it("shows a message row by its state, without the provider's message id", () => {
    const row = { result: 'msg_543e4fdec6c9c512cdb71722 · accepted', invoice: null, delivery: 'accepted' };
    expect(inLanguage('de', 'de-DE', () => resultLine(row))).toBe('Angenommen');
    expect(inLanguage('en', 'en-GB', () => resultLine({ ...row, delivery: null }))).toBe(row.result);
  });
});

describe('channels', () => {
  it('says a channel as people name it: a brand as its maker writes it, a call or an e-mail in words', () => {
    expect(NAMED_CHANNELS).toContain(DEFAULT_MESSAGING_CHANNEL);
    expect(inLanguage('de', 'de-DE', () => channelWords('whatsapp'))).toBe('WhatsApp');
    expect(inLanguage('de', 'de-DE', () => channelWords('voice'))).toBe('Sprachanruf');
    expect(inLanguage('de', 'de-DE', () => channelWords('email'))).toBe('E-Mail');
    expect(inLanguage('en', 'en-GB', () => channelWords('voice'))).toBe('Voice call');
    for (const c of NAMED_CHANNELS)
      expect(
        inLanguage('de', 'de-DE', () => channelWords(c)),
        c,
      ).not.toBe(c);
    // An app the window does not know keeps the name the user typed.
    expect(inLanguage('de', 'de-DE', () => channelWords('kakaotalk'))).toBe('kakaotalk');
  });
});

describe('time zones', () => {
  it('says a zone by its name in the locale, not by its IANA id', () => {
    expect(inLanguage('de', 'de-DE', () => zoneWords('Europe/Berlin'))).toBe('Mitteleuropäische Zeit');
    expect(inLanguage('en', 'en-GB', () => zoneWords('Europe/Berlin'))).toBe('Central European Time');
    expect(inLanguage('de', 'de-DE', () => zoneWords('America/New_York'))).toBe('Nordamerikanische Ostküstenzeit');
    // UTC has no generic name ("GMT+00:00"): its long one.
    expect(inLanguage('de', 'de-DE', () => zoneWords('UTC'))).toBe('Koordinierte Weltzeit');
    // A zone Intl does not know: its city.
    expect(inLanguage('de', 'de-DE', () => zoneWords('Nowhere/Port_Louis_X'))).toBe('Port Louis X');
    for (const z of ['Europe/Berlin', 'Europe/London', 'Asia/Kolkata', 'Africa/Casablanca', 'America/Argentina/Buenos_Aires'])
      expect(
        inLanguage('de', 'de-DE', () => zoneWords(z)),
        z,
      ).not.toMatch(/\/|GMT|UTC/);
  });
});

describe('redaction kinds', () => {
  it('offers each kind by its name in the window language; the codes stay the value', () => {
    const choices = inLanguage('de', 'de-DE', () => fieldWords('redact').choices) ?? {};
    expect(Object.keys(choices)).toEqual([...PERSONAL_DATA_KINDS]);
    expect(choices).toMatchObject({ cards: 'Kartennummern', phones: 'Telefonnummern', 'dates-of-birth': 'Geburtsdaten' });
    for (const [code, name] of Object.entries(choices)) expect(name, code).not.toBe(code);
    expect(severalOf('cards, iban', PERSONAL_DATA_KINDS)).toEqual(['cards', 'iban']);
    expect(severalOf('all', PERSONAL_DATA_KINDS)).toEqual([...PERSONAL_DATA_KINDS]);
    expect(severalOf('', PERSONAL_DATA_KINDS)).toEqual([]);
  });
});
