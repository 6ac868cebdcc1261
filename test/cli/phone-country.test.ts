// Issue 44's report: with LANG=C.UTF-8 (a common server setting) `batch create text --redact all`
// sent "Telefon 0151 23456789" as written. The locale names no country, so the command says
// national numbers are not found and how to set the country; with `config set phone_country DE`
// the number is redacted in what reaches the API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { json, startHostileServer, type HostileServer } from '../helpers/hostile-server';
import { tempDir } from '../helpers/temp-dir';

const C_LOCALE = { LANG: 'C.UTF-8', BATCHDESK_API_KEY: 'sk_test_0123456789abcdef' };

describe('the country of national phone numbers, on a server whose locale is C.UTF-8', () => {
  const dir = tempDir('batchdesk-cli-phone-country-');
  const data = ['--data-dir', join(dir.path, 'data')];
  const notes = join(dir.path, 'pii.txt');
  let server: HostileServer;

  beforeAll(async () => {
    assertBuilt();
    // Every request refused: the test reads what was sent, not what came back.
    server = await startHostileServer((_q, res) => json(res, 422, { error: { code: 'invalid_request', message: 'refused by the test' } }));
    writeFileSync(notes, 'Telefon 0151 23456789\n');
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });

  async function sentFor(): Promise<{ printed: string; sent: string }> {
    const before = server.requests.length;
    const created = await runCli(['batch', 'create', 'text', notes, '--task', 'summary', '--redact', 'all', ...data], C_LOCALE);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    await runCli(['run', id, '--api-url', server.url, ...data], C_LOCALE);
    const sent = server.requests.slice(before).map((q) => q.body);
    expect(sent.length).toBeGreaterThan(0);
    return { printed: created.stdout, sent: sent.join('\n') };
  }

  it('without the setting says national numbers are not found, and the number goes as written', async () => {
    const { printed, sent } = await sentFor();
    expect(printed).toContain('Phone numbers without a country code are NOT found');
    expect(printed).toContain('C.UTF-8');
    expect(printed).toContain('batchdesk config set phone_country');
    expect(sent).toContain('0151 23456789');
  });

  it('refuses a country it does not know, naming the value', async () => {
    const bad = await runCli(['config', 'set', 'phone_country', 'XX', ...data], C_LOCALE);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"XX"');
    expect(bad.stderr).toContain('two-letter country code');
  });

  it('with phone_country DE, says so and redacts the number before it is sent', async () => {
    const set = await runCli(['config', 'set', 'phone_country', 'de', ...data], C_LOCALE);
    expect(set.code, set.stderr).toBe(0);
    expect((await runCli(['config', 'list', ...data], C_LOCALE)).stdout).toMatch(/phone_country\s+DE/);
    const { printed, sent } = await sentFor();
    expect(printed).toContain('read as numbers of Germany (DE; from phone_country)');
    expect(sent).not.toContain('23456789');
    expect(sent).toContain('[PHONE]');

    // A watched folder that redacts phones says the same when it is added.
    const inbox = join(dir.path, 'inbox');
    mkdirSync(inbox);
    const watch = await runCli(['watch', 'add', inbox, '--capability', 'transcribe', '--then', 'text:summary', '--redact', 'phones', ...data], C_LOCALE);
    expect(watch.code, watch.stderr).toBe(0);
    expect(watch.stdout).toContain('(DE; from phone_country)');

    expect((await runCli(['config', 'set', 'phone_country', 'auto', ...data], C_LOCALE)).code).toBe(0);
    expect((await runCli(['config', 'list', ...data], C_LOCALE)).stdout).toMatch(/phone_country\s+auto/);
  });
});
