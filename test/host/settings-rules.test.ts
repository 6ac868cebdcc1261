// The shared rules the window (contract), the host and the command line all use for settings
// and rates: one set of bounds and defaults, and messages that say what is allowed.
import { describe, expect, it } from 'vitest';
import {
  API_URL_RULE,
  checkApiUrl,
  checkRate,
  KeyApiUrlInput,
  numericSettingByKey,
  parseNumericSetting,
  readNumericSetting,
  NUMERIC_SETTINGS,
  RATE_RULE,
} from '../../src/shared/settings-rules';

describe('settings rules', () => {
  it('declares the bounds and defaults once', () => {
    expect(NUMERIC_SETTINGS.concurrency).toMatchObject({ key: 'concurrency', min: 1, max: 256, default: 4 });
    expect(NUMERIC_SETTINGS.rpm).toMatchObject({ key: 'rpm', min: 0, max: 100_000, default: 0 });
    expect(NUMERIC_SETTINGS.maxAttempts).toMatchObject({ key: 'max_attempts', min: 1, max: 50, default: 8 });
    expect(NUMERIC_SETTINGS.maxWaitMinutes).toMatchObject({ key: 'max_wait_minutes', min: 1, max: 1_440, default: 10 });
    expect(RATE_RULE).toMatchObject({ min: 0, max: 10_000_000 });
    expect(API_URL_RULE.protocols).toEqual(['http:', 'https:']);
  });

  it('parses a command-line value by its stored key, with a message naming the bounds', () => {
    const rule = numericSettingByKey('max_attempts');
    expect(rule).toBe(NUMERIC_SETTINGS.maxAttempts);
    expect(numericSettingByKey('nope')).toBeUndefined();
    if (!rule) return;
    expect(parseNumericSetting(rule, '12')).toEqual({ ok: true, value: 12 });
    for (const bad of ['0', '51', '1.5', '', ' 3', '1e1', '-1', '0x10']) {
      const r = parseNumericSetting(rule, bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.message).toContain('1 to 50');
    }
  });

  it('reads a stored value: default when absent or unreadable, clamped into the bounds', () => {
    expect(readNumericSetting(NUMERIC_SETTINGS.concurrency, null)).toBe(4);
    expect(readNumericSetting(NUMERIC_SETTINGS.concurrency, 'x')).toBe(4);
    expect(readNumericSetting(NUMERIC_SETTINGS.concurrency, '999')).toBe(256);
    expect(readNumericSetting(NUMERIC_SETTINGS.concurrency, '0')).toBe(1);
    expect(readNumericSetting(NUMERIC_SETTINGS.rpm, '120')).toBe(120);
  });

  it('checks an API URL: http or https with a host, normalised', () => {
    expect(checkApiUrl('https://api.example.com')).toEqual({ ok: true, url: 'https://api.example.com/' });
    expect(checkApiUrl('http://127.0.0.1:8080/gateway')).toEqual({ ok: true, url: 'http://127.0.0.1:8080/gateway' });
    // Every route is under /v1, which Batchdesk adds: given again, requests would go to /v1/v1/...
    for (const v1 of ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/gateway/v1/']) {
      const r = checkApiUrl(v1);
      expect(r.ok, v1).toBe(false);
      if (!r.ok) expect(r.message).toContain(`ends in /v1, which Batchdesk adds to every request: give the base URL without it (${v1.replace(/v1\/?$/, '')})`);
    }
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'https://', 'api.example.com', `https://${'x'.repeat(3000)}.example`]) {
      const r = checkApiUrl(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.message).toContain('http:// or https://');
    }
  });

  it('checks a rate in 1/10,000 EUR', () => {
    expect(checkRate(40)).toEqual({ ok: true, value: 40 });
    const r = checkRate(10_000_001);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('€1000.0000');
  });
  it("a key's own API URL is checked as the run's, and its message says that none means the run's API", () => {
    expect(KeyApiUrlInput.parse('https://api.example.com')).toBe('https://api.example.com/');
    const r = KeyApiUrlInput.safeParse('ftp://api.example.com');
    expect(r.success).toBe(false);
    const message = r.success ? '' : (r.error.issues[0]?.message ?? '');
    expect(message).toContain('uses "ftp:", which is not allowed');
    expect(message).toContain('the key then sends to the API each run is given');
    expect(message).not.toContain('embedded sandbox');
  });
});
