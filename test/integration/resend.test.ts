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
    // Nobody started the first batch: that, not a send, is why nothing goes; the message says how to send it.
    for (const p of again.problems)
      expect(p.message).toMatch(new RegExp(`batch ${firstId}.*not started yet: \`batchdesk run ${firstId}\` sends it\\).*not sent twice.*--allow-resend`));
    await h.run();
    const third = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(third.problems[0]?.message).toMatch(/: already done\)/);
    const five = await writeMessagesCsv(h.dir, 7, 'seven.csv');
    expect((await h.engine.createBatch({ capability: 'channel', paths: [five.path] })).problems.map((p) => p.row)).toEqual([2, 3, 4, 5, 6]);
  });

  it("lists a file's problems in row order, rows already queued among the rows refused", async () => {
    const h = await startHarness();
    const path = join(h.dir, 'mixed.csv');
    await writeFile(path, 'to,text\n+442079460000,Hello\n12345,Hi\n+442079460001,Hi there\n+442079460002,\n');
    await h.engine.createBatch({ capability: 'channel', paths: [path] });
    const again = await h.engine.createBatch({ capability: 'channel', paths: [path] });
    expect(again.problems.map((p) => p.row)).toEqual([2, 3, 4, 5]);
    expect(again.problems.map((p) => /already queued or sent/.test(p.message))).toEqual([true, false, true, false]);

    // Past the reader's 10,000 listed problems, its "...and N more" line stays last.
    const many = join(h.dir, 'many.csv');
    await writeFile(many, `to,text\n+442079460000,Hello\n${'12345,Hi\n'.repeat(10_003)}`);
    const third = await h.engine.createBatch({ capability: 'channel', paths: [many] });
    expect(third.problems).toHaveLength(10_002);
    expect(third.problems[0]?.row).toBe(2);
    expect(third.problems[1]?.row).toBe(3);
    expect(third.problems.at(-1)).toMatchObject({ row: null, message: expect.stringMatching(/^…and 3 more problems like these/) });
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

  it("are the import's UUIDv7 and the job's number, a new UUIDv7 after a file refused part way", async () => {
    const h = await startHarness();
    const one = await writeMessagesCsv(h.dir, 3, 'one.csv');
    // Rows enough to be handed on before the bad byte is read (the file is read 256 KiB at a
    // time), so the refused file's jobs were numbered, then taken back.
    const lines = ['to,text'];
    for (let i = 0; i < 6_000; i++) lines.push(`${ukDramaNumber(i % 1000)},Second file row ${i} ${'x'.repeat(40)}`);
    const bad = join(h.dir, 'bad.csv');
    await writeFile(bad, Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), Buffer.from([0x2b, 0xff, 0x0a])]));
    const three = await writeMessagesCsv(h.dir, 2, 'three.csv', 500);
    const r = await h.engine.createBatch({ capability: 'channel', paths: [one.path, bad, three.path] });
    expect(r.problems.some((p) => p.source === bad)).toBe(true);
    const jobs = h.engine.db.prepare(`SELECT seq, idempotency_key AS key FROM jobs WHERE batch_id = ? ORDER BY seq`).all(r.batch?.id) as {
      seq: number;
      key: string;
    }[];
    expect(jobs.map((j) => j.seq)).toEqual([1, 2, 3, 4, 5]);
    const uuid = /^(bd-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})-(\d+)$/;
    const parts = jobs.map((j) => uuid.exec(j.key));
    parts.forEach((m, i) => expect(m?.[2]).toBe(String(i + 1)));
    // The first file's jobs share one UUIDv7; the last file's, numbered again from 4 after the
    // refused file's jobs were taken back, another one.
    expect(new Set(parts.slice(0, 3).map((m) => m?.[1])).size).toBe(1);
    expect(parts[3]?.[1]).toBe(parts[4]?.[1]);
    expect(parts[3]?.[1]).not.toBe(parts[0]?.[1]);
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
    expect(await h.engine.control.summaries()).toEqual([]);
    const other = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: {} });
    const small = await writeMessagesCsv(h.dir, 3, 'small.csv');
    const created = await other.createBatch({ capability: 'channel', paths: [small.path] });
    expect(created.batch?.total).toBe(3);
    expect((other.db.prepare(`SELECT COUNT(*) AS n FROM batches WHERE ready = 0`).get() as { n: number }).n).toBe(0);
    expect((other.db.prepare(`SELECT COUNT(*) AS n FROM jobs`).get() as { n: number }).n).toBe(3);
    other.close();
  });
});
