// The window's controls for what the command line did alone (issues 42, 44), over the browser
// host (the same handlers Electron binds): an opt-out list imported from an uploaded file with its
// counts and refused rows, the default retention rule set and a retention run listed (with sizes)
// and then carried out, and the phone country chosen from the countries the finder knows.
import { utimesSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/http';
import { DAY_MS } from '../../src/main/engine/retention/retention-plan';
import { startHostFixture, type HostFixture } from './host-fixture';

const messageOf = (json: unknown): string => (json as { error?: { message?: string } }).error?.message ?? '';

describe('browser host: opt-out import, retention controls and the phone country', () => {
  let f: HostFixture;
  let n = 0;
  const upload = async (name: string, body: string): Promise<string> => {
    const session = `a1b2c3d4-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const r = await rawRequest(`${f.host.url}/upload?session=${session}&path=${encodeURIComponent(name)}`, { method: 'PUT', headers: f.auth, body });
    expect(r.status).toBe(200);
    return (JSON.parse(r.body) as { top: string }).top;
  };
  beforeAll(async () => {
    f = await startHostFixture();
  });
  afterAll(() => f.close());

  it('optouts.import: counts added, already there and refused (row and cause), from an uploaded CSV', async () => {
    expect((await f.rpc('optouts.add', { recipient: '+44 20 7946 0021' })).status).toBe(200);
    const csv = await upload('unsubscribed.csv', 'name;phone\nJo;+44 20 7946 0021\nSam;07946 0022\nAl;+442079460023\nEd;+442079460023\n');
    const r = await f.rpc('optouts.import', { path: csv });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ file: 'unsubscribed.csv', lines: 4, added: 1, already: 2, total: 2, refusedCount: 1 });
    expect((r.json as { refused: unknown[] }).refused).toEqual([
      {
        unit: 'row',
        row: 3,
        code: { code: 'phone_not_international', value: '07946 0022', plus: null },
        message: expect.stringMatching(/^unsubscribed\.csv row 3: phone number "07946 0022" is not in international format/),
      },
    ]);
    const list = (await f.rpc('optouts.list', {})).json as { recipient: string; source: string }[];
    expect(list.map((o) => [o.recipient, o.source])).toContainEqual(['+442079460023', 'import unsubscribed.csv row 4']);

    // A list with one recipient per line names lines; an empty file adds nothing and says what to give.
    const txt = await upload('list.txt', 'Jo@Example.com\n\nnot an address@\n');
    expect((await f.rpc('optouts.import', { path: txt })).json).toMatchObject({ lines: 2, added: 1, refused: [{ unit: 'line', row: 3 }] });
    const empty = await f.rpc('optouts.import', { path: await upload('empty.csv', 'phone\n') });
    expect(empty.status).toBe(400);
    expect(messageOf(empty.json)).toMatch(/empty\.csv holds no recipients .* Nothing was added\. Give a CSV with a column to, phone or email/);
    // The browser reads only what was uploaded to it.
    const outside = await f.rpc('optouts.import', { path: '/etc/passwd' });
    expect(outside.status).toBe(400);
    expect(messageOf(outside.json)).toContain('/etc/passwd: in the browser, add files by dropping or choosing them');
  });

  it('retention: the default set (and refused out of bounds), a dry run with sizes and rules, then Delete now, logged', async () => {
    expect((await f.rpc('retention.run', { dryRun: true })).json).toEqual({ dryRun: true, items: [], count: 0, bytes: 0, problems: [] });
    const bad = await f.rpc('retention.setDefaults', { keepFilesDays: 0, keepResultsDays: null });
    expect(bad.status).toBe(400);
    expect(messageOf(bad.json)).toContain('a retention period is a whole number of days from 1 to 3650');

    const lines = await upload('lines.csv', 'text,name\nYour parcel has arrived.,greeting\nGoodbye!,bye\n');
    const created = (await f.rpc('batches.create', { capability: 'tts', paths: [lines] })).json as { batch: { id: string } };
    const id = created.batch.id;
    for (let i = 0; i < 400 && ((await f.rpc('batches.get', { id })).json as { status: string }).status !== 'done'; i++)
      await new Promise((r) => setTimeout(r, 50));
    // Finished three days ago: a rule of one day names its outputs.
    const engine = f.service.engine;
    engine.db.prepare(`UPDATE jobs SET finished_at = finished_at - ? WHERE batch_id = ?`).run(3 * DAY_MS, id);
    const old = new Date(Date.now() - 3 * DAY_MS);
    for (const name of ['greeting.wav', 'bye.wav']) utimesSync(`${engine.outputsDir(id)}/${name}`, old, old);

    expect((await f.rpc('retention.setDefaults', { keepFilesDays: 1, keepResultsDays: null })).json).toEqual({ keepFilesDays: 1, keepResultsDays: null });
    expect(engine.settings.get('keep_files_days')).toBe('1');
    const dry = (await f.rpc('retention.run', { dryRun: true })).json as {
      items: { kind: string; what: string; rule: string; parts: unknown; size: number | null }[];
      count: number;
      bytes: number;
    };
    const outputs = dry.items.filter((i) => i.kind === 'output');
    expect(outputs.map((o) => o.what.split('/').pop()).sort()).toEqual(['bye.wav', 'greeting.wav']);
    for (const o of outputs) {
      expect(o.size).toBeGreaterThan(44);
      expect(o.rule).toBe('keep-files-days 1 (default)');
      // The same rule by its parts, for the window to say in its language.
      expect(o.parts).toEqual([{ what: 'files', days: 1, origin: { who: 'default' } }]);
    }
    expect(dry.count).toBe(dry.items.length);
    expect(dry.bytes).toBe(dry.items.reduce((s, i) => s + (i.size ?? 0), 0));
    expect((await f.rpc('retention.log', {})).json).toMatchObject({ defaults: { keepFilesDays: 1, keepResultsDays: null }, entries: [] });

    const run = (await f.rpc('retention.run', { dryRun: false })).json as {
      dryRun: boolean;
      items: { what: string; size: number | null }[];
      problems: unknown[];
    };
    expect(run.dryRun).toBe(false);
    expect(run.items.map((i) => i.what).sort()).toEqual(dry.items.map((i) => i.what).sort());
    // Sizes are of the files as they were before they went.
    expect(run.items.map((i) => i.size)).toEqual(dry.items.map((i) => i.size));
    expect(run.problems).toEqual([]);
    const log = (await f.rpc('retention.log', {})).json as { entries: { what: string; parts: unknown }[] };
    expect(log.entries.map((e) => e.what).sort()).toEqual(dry.items.map((i) => i.what).sort());
    expect(log.entries.find((e) => e.what === outputs[0]?.what)?.parts).toEqual([{ what: 'files', days: 1, origin: { who: 'default' } }]);
    expect((await f.rpc('retention.run', { dryRun: true })).json).toMatchObject({ count: 0 });

    // Off again: both parts kept.
    expect((await f.rpc('retention.setDefaults', { keepFilesDays: null, keepResultsDays: null })).json).toEqual({ keepFilesDays: null, keepResultsDays: null });
  });

  it('the phone country: chosen from the regions the finder knows, auto again, an unknown one refused', async () => {
    const { regions } = (await f.rpc('settings.phoneRegions', {})).json as { regions: string[] };
    expect(regions).toContain('DE');
    expect(regions).toContain('GB');
    expect(regions.every((r) => /^[A-Z]{2}$/.test(r))).toBe(true);
    expect([...regions].sort()).toEqual(regions);

    const set = await f.rpc('settings.set', { phoneCountry: 'AT' });
    expect(set.status).toBe(200);
    expect((set.json as { phoneCountry: unknown }).phoneCountry).toEqual({ country: 'AT', from: 'setting' });
    expect(f.service.engine.settings.get('phone_country')).toBe('AT');
    const unknown = await f.rpc('settings.set', { phoneCountry: 'ZZ', concurrency: 3 });
    expect(unknown.status).toBe(400);
    expect(messageOf(unknown.json)).toContain('"ZZ" is not a country whose phone numbers Batchdesk knows');
    // Refused whole: the other setting of the same save was not written either.
    expect(((await f.rpc('settings.get', {})).json as { concurrency: number }).concurrency).not.toBe(3);
    expect((await f.rpc('settings.set', { phoneCountry: 'auto' })).status).toBe(200);
    expect(f.service.engine.settings.get('phone_country')).toBeNull();
  });
});
