// The window's retention parts over the browser host (the same handlers Electron binds): a watched
// folder added with redaction and a retention rule lists them and keeps them until it is removed;
// a bad period is refused with the rule; the retention log lists deletions newest first with the
// data folder's default rule.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionLog } from '../../src/main/engine/retention/retention-log';
import { startHostFixture, type HostFixture } from './host-fixture';

describe('browser host: watched folders with retention, and the retention log', () => {
  let f: HostFixture;
  beforeAll(async () => {
    f = await startHostFixture();
  });
  afterAll(() => f.close());

  it('watch.add keeps the folder rule, watch.list shows it, watch.remove drops it', async () => {
    const dir = join(f.dataDir, '..', 'calls in');
    mkdirSync(dir);
    const bad = await f.rpc('watch.add', { dir, capability: 'transcribe', keepFilesDays: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('a retention period is a whole number of days');

    const add = { dir, capability: 'transcribe', redact: ['cards'], redactStored: true, keepFilesDays: 30, keepResultsDays: 90, deleteOriginals: true };
    const added = await f.rpc('watch.add', add);
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ keepFilesDays: 30, keepResultsDays: 90, deleteOriginals: true, redact: ['cards'], redactStored: true });
    const id = (added.json as { id: string }).id;
    expect((await f.rpc('watch.list', {})).json).toMatchObject([{ id, keepFilesDays: 30, keepResultsDays: 90, deleteOriginals: true }]);

    expect((await f.rpc('watch.remove', { id })).status).toBe(200);
    const again = await f.rpc('watch.add', { dir, capability: 'transcribe' });
    expect(again.json).toMatchObject({ keepFilesDays: null, keepResultsDays: null, deleteOriginals: false, redact: null });
    expect((await f.rpc('watch.list', {})).json).toMatchObject([{ keepFilesDays: null, keepResultsDays: null, deleteOriginals: false }]);
  });

  it('retention.log: the default rule, and deletions newest first', async () => {
    expect((await f.rpc('retention.log', {})).json).toEqual({ defaults: { keepFilesDays: null, keepResultsDays: null }, entries: [] });
    const engine = f.service.engine;
    engine.settings.set('keep_files_days', '14');
    const log = new RetentionLog(engine.db);
    const files = [{ what: 'files', days: 14, origin: { who: 'default' } }] as const;
    log.add({
      at: Date.UTC(2026, 0, 1),
      kind: 'upload',
      what: 'uploads/a.wav',
      rule: 'keep-files-days 14 (default)',
      parts: [...files],
      batchId: 'b_1',
      jobId: 1,
    });
    log.add({ at: Date.UTC(2026, 0, 2), kind: 'result', what: 'job 2', rule: 'batch b_1: results after 7 days', parts: null, batchId: 'b_1', jobId: 2 });
    const r = await f.rpc('retention.log', { limit: 10 });
    expect(r.json).toEqual({
      defaults: { keepFilesDays: 14, keepResultsDays: null },
      entries: [
        // Words of no shape the engine writes come with no parts: the window shows them as recorded.
        { at: '2026-01-02T00:00:00.000Z', kind: 'result', what: 'job 2', rule: 'batch b_1: results after 7 days', parts: null, batchId: 'b_1', jobId: 2 },
        { at: '2026-01-01T00:00:00.000Z', kind: 'upload', what: 'uploads/a.wav', rule: 'keep-files-days 14 (default)', parts: files, batchId: 'b_1', jobId: 1 },
      ],
    });
    expect((await f.rpc('retention.log', { limit: 0 })).status).toBe(400);
  });
});
