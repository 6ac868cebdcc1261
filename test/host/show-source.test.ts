// The desktop app's "Show in folder": jobs.showSource hands the job's source file to the shell
// (here a stand-in for Electron's shell.showItemInFolder); refused for a job without a file, a
// file moved away, and in the browser host.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';
import { RECORDINGS } from '../integration/harness';

describe('jobs.showSource (desktop)', () => {
  const dir = tempDir('batchdesk-show-source-');
  const services: AppService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
    dir.cleanup();
  });

  it('shows a source file in its folder; refuses rows, moved files and the browser', async () => {
    const shown: string[] = [];
    const desktop = new AppService({
      dataDir: join(dir.path, 'data'),
      secrets: emptyKeychain,
      transport: 'electron',
      apiUrl: null,
      env: {},
      showInFolder: (p) => void shown.push(p),
    });
    services.push(desktop);
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    const wav = join(calls, 'a.wav');
    copyFileSync(join(RECORDINGS, 'call-001-double-charge.wav'), wav);
    const batch = (await desktop.engine.createBatch({ capability: 'transcribe', paths: [calls] })).batch;
    const job = desktop.engine.jobPage({ batchId: batch?.id ?? '', limit: 1, offset: 0 }).rows[0]?.id ?? 0;
    expect(await desktop.call('jobs.showSource', { id: job })).toEqual({ ok: true, result: { shown: true } });
    expect(shown).toEqual([wav]);

    const txt = join(dir.path, 'lines.txt');
    writeFileSync(txt, 'hello\n');
    const rows = (await desktop.engine.createBatch({ capability: 'tts', paths: [txt] })).batch;
    const rowJob = desktop.engine.jobPage({ batchId: rows?.id ?? '', limit: 1, offset: 0 }).rows[0]?.id ?? 0;
    expect(await desktop.call('jobs.showSource', { id: rowJob })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('has no source file') },
    });

    rmSync(wav);
    expect(await desktop.call('jobs.showSource', { id: job })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringContaining('moved or deleted'), refusal: { code: 'source_missing', job } },
    });
    // The job dialog says why in the window's words, from the code beside the English.
    expect(await desktop.call('jobs.get', { id: job })).toMatchObject({ ok: true, result: { sourceView: { kind: 'file', exists: false, absent: 'moved' } } });
    expect(shown).toHaveLength(1);

    const browser = new AppService({ dataDir: join(dir.path, 'data2'), secrets: emptyKeychain, transport: 'browser', apiUrl: null, env: {} });
    services.push(browser);
    expect(await browser.call('jobs.showSource', { id: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('needs the desktop app') },
    });
  });
});
