// The window's Forget (privacy.forget over the browser host, the same handler Electron binds):
// a dry run reports and changes nothing; a real one takes the person out and keeps the opt-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostFixture, type HostFixture } from './host-fixture';

describe('browser host: privacy.forget', () => {
  let f: HostFixture;
  beforeAll(async () => {
    f = await startHostFixture();
  });
  afterAll(() => f.close());

  it('finds, then forgets; refuses what is not a phone number, an address or a name', async () => {
    expect((await f.rpc('optouts.add', { recipient: '+44 20 7946 0051' })).status).toBe(200);
    const dry = await f.rpc('privacy.forget', { value: '+44 20 7946 0051', dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dryRun: true, optOutKeptAsHash: true });
    expect(((await f.rpc('optouts.list', {})).json as { recipient: string }[]).map((o) => o.recipient)).toEqual(['+442079460051']);

    const done = await f.rpc('privacy.forget', { value: '020 7946 0051', country: 'gb' });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ dryRun: false, optOutKeptAsHash: true });
    expect(JSON.stringify(done.json)).not.toContain('7946');
    const list = (await f.rpc('optouts.list', {})).json as { recipient: string }[];
    expect(list.map((o) => o.recipient)).toEqual([expect.stringMatching(/^forgotten:[0-9a-f]{64}$/)]);

    const bad = await f.rpc('privacy.forget', { value: '+99 1234 5678' });
    expect(bad.status).toBe(400);
    expect((await f.rpc('privacy.forget', { value: 'x' })).status).toBe(400);
  });
});
