import { describe, expect, it } from 'vitest';
import { redacted } from './helpers';

const emails = (text: string): string => redacted(text, ['emails']);

describe('e-mail addresses', () => {
  it.each([
    ['a plain one', 'mail me at john.smith@example.com please', 'mail me at [EMAIL] please'],
    ['one ending a sentence', 'It is john.smith@example.co.uk.', 'It is [EMAIL].'],
    ['one with a tag and a subdomain', '<a+news@mail.example.org>', '<[EMAIL]>'],
    ['one with umlauts', 'Schreiben Sie an max.müller@beispiel.de, danke', 'Schreiben Sie an [EMAIL], danke'],
    ['one with digits', 'user4111@example.com', '[EMAIL]'],
    ['two in a row', 'a@example.com, b@example.de', '[EMAIL], [EMAIL]'],
  ])('finds %s', (_name, text, expected) => {
    expect(emails(text)).toBe(expected);
  });

  it.each([
    ['in English', 'mail me at john dot smith at example dot com please', 'mail me at [EMAIL] please'],
    ['in English, with an underscore and a two-part ending', 'it is jane underscore doe at mail dot example dot co dot uk.', 'it is [EMAIL].'],
    ['in English, a one-word name at a mail provider', 'send it to john at gmail dot com', 'send it to [EMAIL]'],
    ['in English, a name with digits', 'max1980 at posteo dot de', '[EMAIL]'],
    ['in German', 'Die Adresse ist max punkt müller ät web punkt de, danke.', 'Die Adresse ist [EMAIL], danke.'],
    ['in German, "Klammeraffe" and a provider with a space', 'Klaus Punkt Meier Klammeraffe t online punkt de', '[EMAIL]'],
    ['half written', 'john.smith at example.com', '[EMAIL]'],
  ])('finds one said %s', (_name, text, expected) => {
    expect(emails(text)).toBe(expected);
  });

  it.each([
    ['a handle', 'follow @batchdesk on social media'],
    ['an address without a domain name', 'root@localhost'],
    ['an at sign between numbers', '3 items @ 4.50 each, 5@3.50'],
    ['a domain alone', 'see example.com for details'],
    ['an image file at twice the resolution', 'the icon is tray@2x.png'],
    ['a web address said after "at"', 'I looked at example dot com yesterday'],
    ["a shop's address said", 'go to our website at batchdesk dot com'],
    ['"at" and "dot" in a sentence', 'we met at the office at nine, dot on time'],
  ])('leaves alone %s', (_name, text) => {
    expect(emails(text)).toBe(text);
  });
});
