// Issue 7, point 16 (settings): the window's settings and rates are validated at the boundary
// with the bounds of src/shared/settings-rules.ts, each refusal saying what is allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostFixture, type HostFixture } from './host-fixture';

const messageOf = (json: unknown): string => (json as { error?: { message?: string } }).error?.message ?? '';

describe('browser host: settings.set and rates.set bounds', () => {
  let f: HostFixture;
  beforeAll(async () => {
    f = await startHostFixture();
  });
  afterAll(() => f.close());

  it('accepts only http and https API URLs, with a message saying so', async () => {
    for (const apiUrl of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://api.example.com', 'data:text/plain,hi', 'not a url', '']) {
      const r = await f.rpc('settings.set', { apiUrl });
      expect(r.status, apiUrl).toBe(400);
      expect(messageOf(r.json), apiUrl).toContain('http:// or https://');
      expect(messageOf(r.json), apiUrl).toContain('leave it empty');
    }
    expect(((await f.rpc('settings.get', {})).json as { apiUrl: string | null }).apiUrl).toBeNull();
    const ok = await f.rpc('settings.set', { apiUrl: 'https://api.example.com:8443/gateway' });
    expect(ok.status).toBe(200);
    expect((ok.json as { apiUrl: string }).apiUrl).toBe('https://api.example.com:8443/gateway');
    // The API's routes are under /v1, which Batchdesk adds itself.
    const v1 = await f.rpc('settings.set', { apiUrl: 'https://api.example.com:8443/v1' });
    expect(v1.status).toBe(400);
    expect(messageOf(v1.json)).toContain('give the base URL without it (https://api.example.com:8443/)');
    expect((await f.rpc('settings.set', { apiUrl: null })).status).toBe(200);
  });

  it('shows whose national phone numbers redaction finds; the window sets it as a country code, not as the view', async () => {
    const view = (await f.rpc('settings.get', {})).json as { phoneCountry: { country: string | null } };
    expect(view.phoneCountry).toHaveProperty('country');
    expect((await f.rpc('settings.set', { phoneCountry: { country: 'DE', from: 'setting' } })).status).toBe(400);
  });

  it("takes the window's locale as a language tag only, and reads its region where the host's locale names none", async () => {
    for (const windowLocale of ['', 'de_DE; rm -rf', 'x'.repeat(40), 42])
      expect((await f.rpc('settings.set', { windowLocale })).status, String(windowLocale)).toBe(400);
    const r = await f.rpc('settings.set', { windowLocale: 'de-DE' });
    expect(r.status).toBe(200);
    const country = (r.json as { phoneCountry: { country: string | null; from?: string } }).phoneCountry;
    // The host's own region first (a developer's de_AT); on LANG=C (this suite's CI) the window's.
    if (process.env.LC_ALL || process.env.LC_CTYPE || !/^(C|POSIX)(\.|$)/.test(process.env.LANG ?? 'C')) expect(country.from).not.toBe('window');
    else expect(country).toEqual({ country: 'DE', from: 'window', locale: 'de-DE' });
  });

  it('bounds concurrency (1..256), request limit (0..100000), attempts (1..50) and the longest wait (1..1440 minutes)', async () => {
    const cases: [string, number, boolean, string][] = [
      ['concurrency', 0, false, '1 to 256'],
      ['concurrency', 257, false, '1 to 256'],
      ['concurrency', 2.5, false, '1 to 256'],
      ['concurrency', 256, true, ''],
      ['rpm', -1, false, '0 to 100000'],
      ['rpm', 100_001, false, '0 to 100000'],
      ['rpm', 100_000, true, ''],
      ['maxAttempts', 0, false, '1 to 50'],
      ['maxAttempts', 51, false, '1 to 50'],
      ['maxAttempts', 50, true, ''],
      ['maxWaitMinutes', 0, false, '1 to 1440'],
      ['maxWaitMinutes', 1_441, false, '1 to 1440'],
      ['maxWaitMinutes', 30, true, ''],
    ];
    for (const [field, value, accepted, hint] of cases) {
      const r = await f.rpc('settings.set', { [field]: value });
      expect(r.status, `${field}=${value}`).toBe(accepted ? 200 : 400);
      if (!accepted) expect(messageOf(r.json), `${field}=${value}`).toContain(hint);
    }
    expect((await f.rpc('settings.get', {})).json).toMatchObject({ concurrency: 256, rpm: 100_000, maxAttempts: 50, maxWaitMinutes: 30 });
    // What the window saves is what a run uses.
    expect(f.service.engine.runnerConfig().waitBudgetMs).toBe(30 * 60_000);
  });

  it("still shows the settings when a stored value is outside today's bounds (clamped, not a server error)", async () => {
    f.service.engine.settings.set('concurrency', '999');
    f.service.engine.settings.set('max_attempts', 'lots');
    const r = await f.rpc('settings.get', {});
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ concurrency: 256, maxAttempts: 8 });
  });

  it('bounds a rate at 1,000 EUR per unit (10,000,000 in 1/10,000 EUR)', async () => {
    for (const rate of [2 ** 53 - 1, 10_000_001, -1, 0.5]) {
      const r = await f.rpc('rates.set', { item: 'ocr', tier: 'standard', rate });
      expect(r.status, String(rate)).toBe(400);
      expect(messageOf(r.json), String(rate)).toContain('€1000.0000');
    }
    const ok = await f.rpc('rates.set', { item: 'ocr', tier: 'standard', rate: 10_000_000 });
    expect(ok.status).toBe(200);
    expect((ok.json as { item: string; tier: string; rate: number }[]).find((x) => x.item === 'ocr' && x.tier === 'standard')?.rate).toBe(10_000_000);
  });
});
