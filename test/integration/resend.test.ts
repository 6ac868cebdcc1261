// Creating the same input twice must not send it twice: the resend cases (test/conformance/
// resend-cases.ts, run for a team in resend-pg.test.ts) on this data folder; here, how one
// computer words each row left out, its preview, and an import killed half way (it leaves nothing).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { INVOICES, noKeychain, startHarness, ukDramaNumber, writeMessagesCsv } from './harness';
import { resendCases } from '../conformance/resend-cases';
import { openLocalRig } from './store-rigs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW_CREATE = fileURLToPath(new URL('./fixtures/slow-create.ts', import.meta.url));

resendCases('local runner, SQLite', openLocalRig);

describe('the same input again, on one computer', () => {
  it('names each row left out, and whether the batch that has it is done yet', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 5);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const firstId = first.batch?.id ?? '';
    // The user never saw the first batch (its create was killed after the commit) and creates it again.
    const again = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(again.problems.map((p) => p.row)).toEqual([2, 3, 4, 5, 6]);
    for (const p of again.problems) expect(p.message).toMatch(new RegExp(`batch ${firstId}.*not done yet.*not sent twice.*--allow-resend`));
    await h.run();
    const third = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(third.problems[0]?.message).toMatch(/: already done\)/);
    const five = await writeMessagesCsv(h.dir, 7, 'seven.csv');
    expect((await h.engine.createBatch({ capability: 'channel', paths: [five.path] })).problems.map((p) => p.row)).toEqual([2, 3, 4, 5, 6]);
  });

  it('the preview counts the files already there, and says which capability and tier has them', async () => {
    const h = await startHarness();
    const first = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], tier: 'basic' });
    const n = first.batch?.total ?? 0;
    expect((await h.engine.preview({ capability: 'ocr', paths: [INVOICES], tier: 'basic' })).plan.alreadyQueued).toBe(n);
    const same = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], tier: 'basic' });
    expect(same.problems[0]?.message).toContain('the same content was already given to ocr at the basic tier');
  });
});

describe('idempotency keys, with no index to refuse a repeated one (migration 19)', () => {
  it('are new for every job: an import, its copy sent again, and the steps of a pipeline', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 6);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    await h.run();
    const copy = await h.engine.createBatch({ capability: 'channel', paths: [csv.path], allowResend: true });
    expect(copy.batch?.total).toBe(6);
    const text = join(h.dir, 'note.txt');
    await writeFile(text, 'Call back on Tuesday about the invoice.');
    const piped = await h.engine.createBatch({ capability: 'text', paths: [text], task: 'summary', then: [{ capability: 'crm', record: 'event' }] });
    await h.run();
    const keys = (id: string): string[] => h.engine.db.prepare(`SELECT idempotency_key FROM jobs WHERE batch_id = ? ORDER BY seq`).pluck().all(id) as string[];
    const steps = h.engine.db.prepare(`SELECT id FROM batches WHERE pipeline_id = ? ORDER BY step`).pluck().all(piped.batch?.id) as string[];
    expect(steps).toHaveLength(2);
    expect(keys(steps[1] as string)).toHaveLength(1);
    const all = [first.batch?.id, copy.batch?.id, ...steps].flatMap((id) => keys(id as string));
    expect(all).toHaveLength(6 + 6 + 1 + 1);
    expect(new Set(all).size).toBe(all.length);
    expect(h.engine.db.prepare(`SELECT COUNT(*) - COUNT(DISTINCT idempotency_key) FROM jobs`).pluck().get()).toBe(0);
  });
});

describe('an import killed half way', () => {
  it('leaves no batch anyone sees, and the next create removes its rows', async () => {
    const h = await startHarness();
    const rows = ['to,text'];
    for (let i = 0; i < 120_000; i++) rows.push(`${ukDramaNumber(i % 1000)},Order ${i} has shipped`);
    const csv = join(h.dir, 'big.csv');
    await writeFile(csv, `${rows.join('\n')}\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', SLOW_CREATE, h.dir, csv], { cwd: ROOT, stdio: 'ignore' });
    const partial = h.engine.db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE batch_id IN (SELECT id FROM batches WHERE ready = 0)`);
    let seen = 0;
    for (let i = 0; i < 3000 && seen === 0; i++) {
      await new Promise((r) => setTimeout(r, 5));
      seen = (partial.get() as { n: number }).n;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(seen).toBeGreaterThan(0);
    // Nobody sees it: not listed, not run, not counted as already queued.
    expect(h.engine.summaries()).toEqual([]);
    const other = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: {} });
    const small = await writeMessagesCsv(h.dir, 3, 'small.csv');
    const created = await other.createBatch({ capability: 'channel', paths: [small.path] });
    expect(created.batch?.total).toBe(3);
    expect((other.db.prepare(`SELECT COUNT(*) AS n FROM batches WHERE ready = 0`).get() as { n: number }).n).toBe(0);
    expect((other.db.prepare(`SELECT COUNT(*) AS n FROM jobs`).get() as { n: number }).n).toBe(3);
    other.close();
  });
});
