// What a watched folder says of a file is its latest state, not a history of versions: a file
// resent is no longer "not sent", a file that keeps changing is one line with how many versions
// were not sent, and a resend of a version that cannot be read leaves the file where it is.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import type { WatchEvent } from '../../src/main/engine/watch/hot-folders';
import { SET_ASIDE_DIR } from '../../src/main/engine/watch/intake-rules';
import { noKeychain, INVOICES } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/wait-for';
import { StagedFiles } from '../helpers/staged-files';

const STABLE_MS = 300;
const PDF = join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf');
const PDF2 = join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf');
const PDF3 = join(INVOICES, 'invoice-halvorsen-INV-2026-0103.pdf');
const PNG = join(INVOICES, 'invoice-marlowe-INV-2026-0088.png');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Whole by its format (it ends in %%EOF), no PDF the importer can read. */
const BROKEN = '%PDF-1.7\nnot a document at all\n%%EOF\n';

/** Each version is moved in over the last (made before the watcher started: the short quiet time). */
async function rig(): Promise<{ engine: Engine; folder: string; events: WatchEvent[]; staged: StagedFiles }> {
  const dir = tempDir('batchdesk-watch-state-');
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'in');
  mkdirSync(folder);
  const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain, env: {} });
  cleanups.push(() => engine.close());
  engine.hotFolders.add({ dir: folder, capability: 'ocr', budgetPerDay: 20_000 });
  const staged = new StagedFiles(join(dir.path, 'staged')).stage(PDF).stage(PDF2, 2).stage(PDF3).stage(PNG).stage(BROKEN, 1, BROKEN);
  await staged.aged(STABLE_MS);
  const events: WatchEvent[] = [];
  const session = engine.hotFolders.watch({ stableMs: STABLE_MS, onEvent: (e) => events.push(e) });
  cleanups.push(() => session.close());
  await session.ready;
  return { engine, folder, events, staged };
}

const refusals = (events: WatchEvent[]): WatchEvent[] => events.filter((e) => e.kind === 'refused');

describe("a watched file's latest state", () => {
  it('after a resend, the file is no longer listed as not sent; the list says its batch and item', async () => {
    const r = await rig();
    const path = join(r.folder, 'invoice.pdf');
    r.staged.drop(PDF, path);
    await until('the first version to be taken', () => r.events.some((e) => e.kind === 'taken'));
    r.staged.drop(PDF2, path);
    await until('the change to be reported', () => refusals(r.events).length === 1);
    expect(r.engine.hotFolders.list()[0]?.problems.map((p) => p.path)).toEqual([path]);
    const resent = await r.engine.hotFolders.resend(path);
    expect(resent).toMatchObject({ kind: 'taken', seq: 2 });
    const view = r.engine.hotFolders.list()[0];
    expect(view?.problems).toEqual([]);
    expect(view?.lastFile).toMatchObject({ path, batch: resent.kind === 'taken' ? resent.batchId : '?', seq: 2 });
  });

  it('a file changed again and again is one problem with how many versions were not sent', async () => {
    const r = await rig();
    const path = join(r.folder, 'invoice.pdf');
    r.staged.drop(PDF, path);
    await until('the first version to be taken', () => r.events.some((e) => e.kind === 'taken'));
    for (const [i, next] of [PDF2, PDF3, PNG].entries()) {
      r.staged.drop(next, path);
      await until(`change ${i + 1} to be reported`, () => refusals(r.events).length === i + 1);
    }
    expect(refusals(r.events).map((e) => (e.kind === 'refused' && e.note.code === 'changed_after_sent' ? e.note.versions : 0))).toEqual([1, 2, 3]);
    const problems = r.engine.hotFolders.list()[0]?.problems ?? [];
    expect(problems).toHaveLength(1);
    expect(problems[0]?.note).toMatchObject({ code: 'changed_after_sent', versions: 3 });
    expect(problems[0]?.message).toMatch(/invoice\.pdf changed after it was sent .*: its 3 new versions since were not sent, so it is not paid for twice/);
    // Resent, the count starts again at the next change.
    expect((await r.engine.hotFolders.resend(path)).kind).toBe('taken');
    // A version never taken (the first one's content would be skipped as already taken).
    r.staged.drop(PDF2, path);
    await until('the change after the resend to be reported', () => refusals(r.events).length === 4);
    const again = r.engine.hotFolders.list()[0]?.problems ?? [];
    expect(again.map((p) => p.note)).toMatchObject([{ code: 'changed_after_sent', versions: 1 }]);
  });

  it('a resend of a version that cannot be read leaves the file where it is and says so', async () => {
    const r = await rig();
    const path = join(r.folder, 'invoice.pdf');
    r.staged.drop(PDF, path);
    await until('the first version to be taken', () => r.events.some((e) => e.kind === 'taken'));
    r.staged.drop(BROKEN, path);
    await until('the change to be reported', () => refusals(r.events).length === 1);
    const e = await r.engine.hotFolders.resend(path);
    expect(e.kind).toBe('refused');
    expect(e.kind === 'refused' && e.note).toMatchObject({ code: 'not_resent' });
    expect(e.kind === 'refused' && e.message).toMatch(
      /invoice\.pdf.*This version was not sent and \S+invoice\.pdf stays where it is: once it is complete and readable, send it with `batchdesk watch resend \S+` again\./,
    );
    expect(readFileSync(path, 'utf8')).toBe(BROKEN);
    expect(existsSync(join(r.folder, SET_ASIDE_DIR))).toBe(false);
    // Still reported as changed, not as set aside.
    expect(r.engine.hotFolders.list()[0]?.problems.map((p) => p.note?.code)).toEqual(['changed_after_sent']);
  });
});
