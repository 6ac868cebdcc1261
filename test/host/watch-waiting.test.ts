// A watched folder's file that held still but is not whole yet reaches the window: `watch.list`
// answers it under `waiting` with its note's code (a PDF without %%EOF at its end), and drops it
// once the file is taken (its end written) or gone (deleted while it waited). A real service, real
// files, chokidar.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { WatchView } from '../../src/shared/contract-calls';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';
import { sleep } from '../helpers/wait-for';
import { INVOICES } from '../integration/harness';

const PDF = readFileSync(join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'));
/** Half of the document: no %%EOF at its end yet, as a scanner writing page by page leaves it. */
const HALF = Math.floor(PDF.lastIndexOf('%%EOF') * 0.5);

describe('watch.list: files not taken yet', () => {
  const dir = tempDir('batchdesk-watch-waiting-');
  let service: AppService | null = null;
  afterEach(async () => {
    await service?.close();
    dir.cleanup();
  });

  it('lists a PDF without its end with why, and drops it once taken or gone', async () => {
    expect(PDF.subarray(HALF - 1024, HALF).includes('%%EOF')).toBe(false);
    const folder = join(dir.path, 'scans');
    mkdirSync(folder);
    const s = new AppService({ dataDir: join(dir.path, 'data'), secrets: emptyKeychain, transport: 'browser', apiUrl: null, env: {}, watchStableMs: 150 });
    service = s;
    expect(await s.call('watch.add', { dir: folder, capability: 'ocr' })).toMatchObject({ ok: true });
    const list = async (): Promise<WatchView> => {
      const r = await s.call('watch.list', {});
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      return WatchView.array().parse(r.result)[0] as WatchView;
    };
    const until = async (what: string, pred: (w: WatchView) => boolean): Promise<WatchView> => {
      for (let i = 0; i < 1_000; i++) {
        const w = await list();
        if (pred(w)) return w;
        await sleep(50);
      }
      throw new Error(`waited too long for ${what}: ${JSON.stringify(await list())}`);
    };
    s.start();

    const scan = join(folder, 'scan.pdf');
    writeFileSync(scan, PDF.subarray(0, HALF));
    const waiting = await until('the scan to be listed as waiting', (w) => w.waiting.length > 0);
    expect(waiting.waiting).toEqual([
      {
        path: scan,
        note: { code: 'incomplete', why: { code: 'pdf_no_eof' } },
        message: expect.stringContaining(`${scan} is not taken yet: its PDF has no %%EOF at its end yet`),
        at: expect.any(String),
        batch: null,
        seq: null,
      },
    ]);
    expect(waiting.takenToday).toBe(0);

    // Its end written: taken, and no longer waiting.
    appendFileSync(scan, PDF.subarray(HALF));
    const taken = await until('the scan to be taken', (w) => w.takenToday === 1);
    expect(taken.waiting).toEqual([]);
    expect(taken.lastFile?.path).toBe(scan);

    // One deleted while it waits goes from the list too.
    const cut = join(folder, 'cut.pdf');
    writeFileSync(cut, PDF.subarray(0, HALF));
    await until('the cut file to be listed as waiting', (w) => w.waiting.some((f) => f.path === cut));
    unlinkSync(cut);
    expect((await list()).waiting).toEqual([]);
  });
});
