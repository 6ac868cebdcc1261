// Creating the same input twice must not send it twice: rows (same channel, recipient, text) and
// files (same content, same capability) already in an unfinished or succeeded batch are refused
// with that batch named, unless the user allows a resend. An import killed half way leaves nothing.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { INVOICES, jobsOf, noKeychain, startHarness, ukDramaNumber, writeMessagesCsv } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW_CREATE = fileURLToPath(new URL('./fixtures/slow-create.ts', import.meta.url));

describe('the same rows again', () => {
  it('refuses rows already queued in another batch, naming it; --allow-resend takes them', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 5);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const firstId = first.batch?.id ?? '';
    // The user never saw the first batch (its create was killed after the commit) and creates it again.
    const again = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(again.batch).toBeNull();
    expect(again.alreadyQueued).toBe(5);
    expect(again.problems).toHaveLength(5);
    for (const p of again.problems) {
      expect(p.row).not.toBeNull();
      expect(p.message).toContain(`batch ${firstId}`);
      expect(p.message).toMatch(/not done yet.*not sent twice.*--allow-resend/);
    }
    // Running everything then sends each message once.
    await h.run();
    expect(await h.admin.ledger()).toHaveLength(5);

    // After it succeeded the refusal says so; a deliberate resend is a new batch with new keys.
    const third = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(third.problems[0]?.message).toMatch(/: already done\)/);
    const resend = await h.engine.createBatch({ capability: 'channel', paths: [csv.path], allowResend: true });
    expect(resend.batch?.total).toBe(5);
    expect(resend.alreadyQueued).toBe(0);
    const keys = new Set([...jobsOf(h.engine, firstId), ...jobsOf(h.engine, resend.batch?.id ?? '')].map((j) => j.idempotency_key));
    expect(keys.size).toBe(10);
  });

  it('only the rows already there are refused; new rows and another channel are taken', async () => {
    const h = await startHarness();
    const three = await writeMessagesCsv(h.dir, 3, 'three.csv');
    await h.engine.createBatch({ capability: 'channel', paths: [three.path] });
    const five = await writeMessagesCsv(h.dir, 5, 'five.csv');
    const r = await h.engine.createBatch({ capability: 'channel', paths: [five.path] });
    expect(r.batch?.total).toBe(2);
    expect(r.problems.map((p) => p.row)).toEqual([2, 3, 4]);
    const email = join(h.dir, 'email.csv');
    await writeFile(email, 'to,text\nann@example.com,hello\n');
    expect((await h.engine.createBatch({ capability: 'channel', paths: [email], channel: 'email' })).batch?.total).toBe(1);
    const voice = await h.engine.createBatch({ capability: 'channel', paths: [three.path], channel: 'voice' });
    expect(voice.batch?.total).toBe(3);
  });

  it('rows of a failed or cancelled batch may be sent again without --allow-resend', async () => {
    const h = await startHarness({ config: { backoff: { baseMs: 5, capMs: 10, maxTries: 1 } } });
    const csv = await writeMessagesCsv(h.dir, 2);
    await h.admin.setFaults({ error_rate: 1 });
    const failed = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.run();
    expect(h.engine.summary(failed).status).toBe('done_with_failures');
    const cancelled = await writeMessagesCsv(h.dir, 1, 'later.csv', 500);
    const c = (await h.engine.createBatch({ capability: 'channel', paths: [cancelled.path] })).batch?.id ?? '';
    h.engine.cancel(c);
    expect((await h.engine.createBatch({ capability: 'channel', paths: [csv.path, cancelled.path] })).batch?.total).toBe(3);
  });

  it('rows a cancelled batch already sent are refused; the ones it never sent may go', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 4);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path], sample: 2 })).batch?.id ?? '';
    await h.run(); // the sample: 2 sent, then the batch pauses
    expect(h.engine.summary(id).counts.succeeded).toBe(2);
    h.engine.cancel(id);
    const again = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(again.batch?.total).toBe(2);
    expect(again.alreadyQueued).toBe(2);
  });
});

describe('the same files again', () => {
  it('refuses files whose content is already in an OCR batch, in the preview too; --allow-resend takes them', async () => {
    const h = await startHarness();
    const first = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES] });
    const n = first.batch?.total ?? 0;
    expect(n).toBeGreaterThan(0);
    const again = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES] });
    expect(again.batch).toBeNull();
    expect(again.alreadyQueued).toBe(n);
    expect(again.problems.every((p) => p.message.includes(`batch ${first.batch?.id ?? '?'}`))).toBe(true);
    const preview = await h.engine.preview({ capability: 'ocr', paths: [INVOICES] });
    expect(preview.plan.alreadyQueued).toBe(n);
    expect((await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], allowResend: true })).batch?.total).toBe(n);
  });

  it('the same files at another tier are new work: taken without --allow-resend', async () => {
    const h = await startHarness();
    const first = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], tier: 'basic' });
    const n = first.batch?.total ?? 0;
    const same = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], tier: 'basic' });
    expect(same.problems[0]?.message).toContain('the same content was already given to ocr at the basic tier');
    expect((await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES], tier: 'superior' })).batch?.total).toBe(n);
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
