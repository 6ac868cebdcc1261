// The country whose national phone numbers redaction finds: the data folder's phone_country
// first, then the locale; a locale that names no place (C, POSIX, C.UTF-8) is no country, not
// ICU's en-US, and the words say so with the command that sets it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { knownRegion, resolvePhoneCountry, usePhoneCountrySetting } from '../../../src/main/engine/privacy/home-country';
import { Tallies } from '../../../src/main/engine/privacy/redact-values';
import { phoneCountryWords } from '../../../src/shared/phone-country';

const ICU_OF_C = 'en-US';
const env = (vars: Record<string, string>) => ({ env: vars, icuLocale: ICU_OF_C });

describe('resolvePhoneCountry', () => {
  it('takes the setting before the locale, and auto or unset as none', () => {
    expect(resolvePhoneCountry('DE', env({ LANG: 'en_GB.UTF-8' }))).toEqual({ country: 'DE', from: 'setting' });
    expect(resolvePhoneCountry('auto', env({ LANG: 'en_GB.UTF-8' }))).toEqual({ country: 'GB', from: 'locale', locale: 'en_GB' });
    expect(resolvePhoneCountry(null, env({ LANG: 'de_DE.UTF-8' }))).toEqual({ country: 'DE', from: 'locale', locale: 'de_DE' });
  });

  it('reads C, POSIX and C.UTF-8 as no country, though ICU resolves them to en-US', () => {
    for (const LANG of ['C', 'POSIX', 'C.UTF-8']) expect(resolvePhoneCountry(null, env({ LANG }))).toEqual({ country: null, locale: LANG });
    // LC_ALL overrides LANG, LC_CTYPE too.
    expect(resolvePhoneCountry(null, env({ LC_ALL: 'C.UTF-8', LANG: 'de_DE.UTF-8' })).country).toBeNull();
    expect(resolvePhoneCountry(null, env({ LC_CTYPE: 'de_AT.UTF-8', LANG: 'C' }))).toMatchObject({ country: 'AT', from: 'locale' });
    // A language alone names no country either.
    expect(resolvePhoneCountry(null, env({ LANG: 'en' })).country).toBeNull();
  });

  it("takes the window's region where this computer's locale names none, never before it", () => {
    expect(resolvePhoneCountry(null, env({ LANG: 'C.UTF-8' }), 'de-DE')).toEqual({ country: 'DE', from: 'window', locale: 'de-DE' });
    expect(resolvePhoneCountry('auto', env({ LANG: 'C' }), 'de-AT')).toEqual({ country: 'AT', from: 'window', locale: 'de-AT' });
    // The computer's own region and the setting come first; a window language without a region names none.
    expect(resolvePhoneCountry(null, env({ LANG: 'en_GB.UTF-8' }), 'de-DE')).toEqual({ country: 'GB', from: 'locale', locale: 'en_GB' });
    expect(resolvePhoneCountry('CH', env({ LANG: 'C' }), 'de-DE')).toEqual({ country: 'CH', from: 'setting' });
    expect(resolvePhoneCountry(null, env({ LANG: 'C' }), 'de')).toEqual({ country: null, locale: 'C' });
    expect(phoneCountryWords({ country: 'DE', from: 'window', locale: 'de-DE' })).toContain("from the window's locale de-DE");
  });

  it('falls back to ICU only where no POSIX variable is set (Windows, macOS app)', () => {
    expect(resolvePhoneCountry(null, { env: {}, icuLocale: 'de-CH' })).toEqual({ country: 'CH', from: 'locale', locale: 'de-CH' });
    expect(resolvePhoneCountry(null, { env: {}, icuLocale: 'es-419' }).country).toBeNull();
  });

  it('says where the country comes from, or that national numbers are not found and how to set it', () => {
    expect(phoneCountryWords({ country: 'DE', from: 'setting' })).toContain('numbers of Germany (DE; from phone_country)');
    expect(phoneCountryWords({ country: 'DE', from: 'locale', locale: 'de_DE' })).toContain("from this computer's locale de_DE");
    const none = phoneCountryWords({ country: null, locale: 'C.UTF-8' });
    expect(none).toContain('NOT found');
    expect(none).toContain('batchdesk config set phone_country');
  });
});

describe('redaction with the resolved country', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    usePhoneCountrySetting(null);
  });

  it('finds "0151 23456789" only once the country is known', () => {
    vi.stubEnv('LC_ALL', '');
    vi.stubEnv('LC_CTYPE', '');
    vi.stubEnv('LANG', 'C.UTF-8');
    const text = 'Telefon 0151 23456789';
    usePhoneCountrySetting('DE');
    expect(new Tallies(['phones'], 'sent').text('t', text)).toBe('Telefon [PHONE]');
    expect(usePhoneCountrySetting(null)).toEqual({ country: null, locale: 'C.UTF-8' });
    expect(new Tallies(['phones'], 'sent').text('t', text)).toBe(text);
    // The window reports de-DE: the server's C locale names no country, so the window's region is read.
    expect(usePhoneCountrySetting(null, 'de-DE')).toEqual({ country: 'DE', from: 'window', locale: 'de-DE' });
    expect(new Tallies(['phones'], 'sent').text('t', text)).toBe('Telefon [PHONE]');
    usePhoneCountrySetting(null, null);
  });
});

describe('knownRegion', () => {
  it('takes a region with numbering metadata only', () => {
    expect(knownRegion('DE')).toBe('DE');
    expect(knownRegion('XX')).toBeNull();
    expect(knownRegion('de')).toBeNull();
  });
});
