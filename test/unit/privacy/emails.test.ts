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
    ['a handle', 'follow @batchdesk on social media'],
    ['an address without a domain name', 'root@localhost'],
    ['an at sign between numbers', '3 items @ 4.50 each, 5@3.50'],
    ['a domain alone', 'see example.com for details'],
  ])('leaves alone %s', (_name, text) => {
    expect(emails(text)).toBe(text);
  });
});
