import { describe, expect, it } from 'vitest';
import { findPersonalData, redact } from '../../../src/main/engine/privacy/personal-data';
import { PERSONAL_DATA_KINDS } from '../../../src/shared/privacy-kinds';

const ALL = PERSONAL_DATA_KINDS;

const ENGLISH_CALL = [
  'Agent: Thanks for calling. Can I have your card number?',
  'Customer: Sure, it is four one one one, one one one one, one one one one, one one one one.',
  'Agent: And your date of birth? Customer: I was born on 12 March 1980.',
  'Customer: Call me back on oh two oh, seven nine four six, oh nine five eight, or mail john.smith@example.com.',
  'Customer: Refund it to GB82 WEST 1234 5698 7654 32 please. My order was 4711-0815-22, it cost 1,299.00 at 10:30.',
].join('\n');

const ENGLISH_REDACTED = [
  'Agent: Thanks for calling. Can I have your card number?',
  'Customer: Sure, it is [CARD].',
  'Agent: And your date of birth? Customer: I was born on [DOB].',
  'Customer: Call me back on [PHONE], or mail [EMAIL].',
  'Customer: Refund it to [IBAN] please. My order was 4711-0815-22, it cost 1,299.00 at 10:30.',
].join('\n');

const GERMAN_CALL = [
  'Mitarbeiterin: Wie lautet Ihre IBAN?',
  'Kunde: D E acht neun, drei sieben null vier, null null vier vier, null fünf drei zwo, null eins drei null, null null.',
  'Kunde: Ich bin am 12.03.1980 geboren, meine Handynummer ist null eins fünf eins zwo drei vier fünf sechs sieben acht neun.',
  'Kunde: Die Karte ist 5555-5555-5555-4444, meine Adresse max.mueller@beispiel.de.',
  'Mitarbeiterin: Danke, Ihr Termin ist am 3. Mai 2025 um 14:30, Bestellnummer 12345678.',
].join('\n');

const GERMAN_REDACTED = [
  'Mitarbeiterin: Wie lautet Ihre IBAN?',
  'Kunde: [IBAN].',
  'Kunde: Ich bin am [DOB] geboren, meine Handynummer ist [PHONE].',
  'Kunde: Die Karte ist [CARD], meine Adresse [EMAIL].',
  'Mitarbeiterin: Danke, Ihr Termin ist am 3. Mai 2025 um 14:30, Bestellnummer 12345678.',
].join('\n');

describe('redact', () => {
  it('replaces every kind in an English call, and nothing else', () => {
    const r = redact(ENGLISH_CALL, { kinds: ALL, country: 'GB' });
    expect(r.text).toBe(ENGLISH_REDACTED);
    expect(r.counts).toEqual({ cards: 1, iban: 1, phones: 1, emails: 1, 'dates-of-birth': 1 });
  });

  it('replaces every kind in a German call, and nothing else', () => {
    const r = redact(GERMAN_CALL, { kinds: ALL, country: 'DE' });
    expect(r.text).toBe(GERMAN_REDACTED);
    expect(r.counts).toEqual({ cards: 1, iban: 1, phones: 1, emails: 1, 'dates-of-birth': 1 });
  });

  it('replaces only the kinds asked for', () => {
    const r = redact(ENGLISH_CALL, { kinds: ['emails', 'cards'], country: 'GB' });
    expect(r.counts).toEqual({ cards: 1, iban: 0, phones: 0, emails: 1, 'dates-of-birth': 0 });
    expect(r.text).toContain('GB82 WEST 1234 5698 7654 32');
    expect(r.text).toContain('12 March 1980');
    expect(r.text).toContain('oh two oh, seven nine four six');
    expect(r.text).not.toContain('john.smith');
  });

  it('counts each finding', () => {
    const text = 'cards 4111 1111 1111 1111, 5555 5555 5555 4444 and 3782 822463 10005; mail a@example.com or b@example.org.';
    const r = redact(text, { kinds: ALL });
    expect(r.counts).toEqual({ cards: 3, iban: 0, phones: 0, emails: 2, 'dates-of-birth': 0 });
    expect(r.text).toBe('cards [CARD], [CARD] and [CARD]; mail [EMAIL] or [EMAIL].');
  });

  it('says what was replaced and where in the original, never the value', () => {
    const r = redact(GERMAN_CALL, { kinds: ALL, country: 'DE' });
    expect(r.spans.map((s) => s.kind)).toEqual(['iban', 'dates-of-birth', 'phones', 'cards', 'emails']);
    for (const s of r.spans) expect(Object.keys(s).sort()).toEqual(['end', 'kind', 'start']);
    const phone = r.spans.find((s) => s.kind === 'phones');
    expect(phone && GERMAN_CALL.slice(phone.start, phone.end)).toBe('null eins fünf eins zwo drei vier fünf sechs sieben acht neun');
    const iban = r.spans.find((s) => s.kind === 'iban');
    expect(iban && GERMAN_CALL.slice(iban.start, iban.end)).toBe(
      'D E acht neun, drei sieben null vier, null null vier vier, null fünf drei zwo, null eins drei null, null null',
    );
  });

  it('a card number that also reads as a phone number: one placeholder, of the stronger kind', () => {
    // +49 1512 3456 787 is a valid German mobile number, and 4915123456787 a Luhn-valid Visa number.
    const text = 'ruf +49 1512 3456 787 an';
    const found = findPersonalData(text, { kinds: ['phones'], country: 'DE' });
    expect(found).toEqual([{ kind: 'phones', start: 4, end: 21 }]);
    expect(findPersonalData(text, { kinds: ['cards'] }).map((f) => f.kind)).toEqual(['cards']);
    const r = redact(text, { kinds: ALL, country: 'DE' });
    expect(r.text).toBe('ruf [CARD] an');
    expect(r.counts).toEqual({ cards: 1, iban: 0, phones: 0, emails: 0, 'dates-of-birth': 0 });
  });

  it('an e-mail address holding a phone number is one e-mail address', () => {
    const r = redact('write to 015123456789@example.com now', { kinds: ALL, country: 'DE' });
    expect(r.text).toBe('write to [EMAIL] now');
    expect(r.counts.phones).toBe(0);
  });

  it('is idempotent: redacting what it wrote changes nothing', () => {
    for (const [text, country] of [
      [ENGLISH_CALL, 'GB'],
      [GERMAN_CALL, 'DE'],
    ] as const) {
      const once = redact(text, { kinds: ALL, country });
      const twice = redact(once.text, { kinds: ALL, country });
      expect(twice.text).toBe(once.text);
      expect(twice.spans).toEqual([]);
    }
  });

  it('a text without personal data comes back as it was', () => {
    const text = 'Order 4711-0815-22 shipped on 12.03.2025 at 10:30; total 1.299,00 EUR; one or two boxes; in 1980.';
    const r = redact(text, { kinds: ALL, country: 'DE' });
    expect(r.text).toBe(text);
    expect(r.spans).toEqual([]);
  });

  it('a 1 MB transcript: every finding counted, none left (time printed)', () => {
    const lines = [...ENGLISH_CALL.split('\n'), ...GERMAN_CALL.split('\n')];
    const filler = [
      'Agent: Thank you for calling, how can I help you today?',
      'Customer: I ordered two items last week and one of them never arrived.',
      'Agent: I am sorry to hear that, let me check, one moment please.',
      'Kunde: Ich habe zwei Pakete bestellt, aber nur eins ist angekommen.',
      'Agent: The total was 1,299.00 at 10:30 on 12.03.2025, order 4711-0815-22.',
    ];
    const parts: string[] = [];
    let size = 0;
    let calls = 0;
    for (let i = 0; size < 1_000_000; i++) {
      const line = i % 10 === 0 ? lines[calls++ % lines.length] : filler[i % filler.length];
      parts.push(line ?? '');
      size += (line ?? '').length + 1;
    }
    const transcript = parts.join('\n');
    const started = performance.now();
    const r = redact(transcript, { kinds: ALL, country: 'DE' });
    const ms = performance.now() - started;
    console.log(`redact: ${(transcript.length / 1e6).toFixed(2)} MB in ${ms.toFixed(0)} ms, ${r.spans.length} findings`);
    // Per English call: all five kinds, the phone only as a British number (the recipient is German).
    const perRound = (n: number): number => Math.floor(calls / lines.length) + (calls % lines.length > n ? 1 : 0);
    expect(r.counts.emails).toBe(perRound(3) + perRound(8));
    expect(r.counts.cards).toBe(perRound(1) + perRound(8));
    for (const value of ['one one one one', '5555-5555', 'john.smith', 'max.mueller', '12 March 1980', '12.03.1980', 'WEST 1234', 'null eins fünf']) {
      expect(r.text).not.toContain(value);
    }
    expect(r.text).toContain('4711-0815-22');
  });
});
