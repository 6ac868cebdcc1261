// Invoices the team reads are checked as on one computer: in each success's transaction, by the
// worker that got it. The sample whose gross is not net + VAT needs review (status, exports, UBL
// notes), and of several readings of one invoice one is the original and the others duplicates
// naming an earlier one, even when two workers finish them at the same moment (finishes of one
// invoice number take turns).
import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { runCli } from '../helpers/cli';
import { NORDLICHT, ublXml } from '../helpers/einvoice-files';
import { jobStates, keyEnv, query, startWorker, useTeamRig } from '../helpers/team-run';

const INVOICES = fileURLToPath(new URL('../../resources/samples/invoices/', import.meta.url));
const MARLOWE = 'invoice-marlowe-INV-2026-0088.png';
const ALDENMOOR = 'invoice-aldenmoor-INV-2026-0012.pdf';

describe('team: invoice checks', () => {
  const rig = useTeamRig('batchdesk-team-invoices-', { seed: 14 });

  it('flags the invoice that does not add up and a second reading of one invoice, across workers', async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('invoices');
    const create = async (folder: string, name: string): Promise<string> => {
      const r = await runCli(
        ['batch', 'create', 'ocr', folder, '--name', name, '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url, '--json'],
        keyEnv(sb),
      );
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { batch: { id: string } }).batch.id;
    };
    const env = { BATCHDESK_STORE: storeUrl };
    const elsewhere = ['--data-dir', join(dir.path, 'accountant')];
    const status = async (id: string): Promise<number> => {
      const s = await runCli(['status', id, '--json', ...elsewhere], env);
      expect(s.code, s.stderr).toBe(0);
      return (JSON.parse(s.stdout) as { batches: { counts: { needs_review: number } }[] }).batches[0]?.counts.needs_review ?? -1;
    };
    const duplicateChecks = async (id: string): Promise<{ source: string; ok: boolean | null; detail: string }[]> =>
      (
        await query<{ source: string; checks_json: string }>(
          storeUrl,
          `SELECT j.source, r.checks_json FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id WHERE j.batch_id = $1 ORDER BY j.seq`,
          [id],
        )
      ).map((d) => ({
        source: d.source,
        ...((JSON.parse(d.checks_json) as { check: string; ok: boolean | null; detail: string }[]).find((c) => c.check === 'duplicate') ?? {
          ok: null,
          detail: '',
        }),
      }));

    // One invoice saved eight times (other bytes, so not skipped as the same file), read by two
    // workers at once (4 in flight each): one reading is the original, the other seven name it.
    const rescans = join(dir.path, 'rescans');
    mkdirSync(rescans);
    for (let n = 1; n <= 8; n++) {
      copyFileSync(join(INVOICES, ALDENMOOR), join(rescans, `aldenmoor-rescan-${n}.pdf`));
      appendFileSync(join(rescans, `aldenmoor-rescan-${n}.pdf`), `\n% saved again ${n}\n`);
    }
    const copies = await create(rescans, 'rescans');
    const racers = [startWorker({ storeUrl, dataDir: join(dir.path, 'w1'), sb }), startWorker({ storeUrl, dataDir: join(dir.path, 'w2'), sb })];
    live.push(...racers);
    for (const w of racers) expect((await w.done).code).toBe(0);
    expect(await jobStates(storeUrl, copies)).toEqual([{ state: 'succeeded', n: 8 }]);
    const raced = await duplicateChecks(copies);
    expect(raced).toHaveLength(8);
    expect(raced.filter((c) => c.ok === true)).toHaveLength(1);
    const original = raced.find((c) => c.ok === true);
    for (const c of raced.filter((d) => d.ok === false)) expect(c.detail).toContain(`of batch ${copies}`);
    expect(await status(copies)).toBe(7);
    expect(original).toBeDefined();

    // The sample invoices: the one that does not add up needs review, and Aldenmoor, read above
    // already, is a duplicate.
    const first = await create(INVOICES, 'invoices');
    const workers = [startWorker({ storeUrl, dataDir: join(dir.path, 'w3'), sb }), startWorker({ storeUrl, dataDir: join(dir.path, 'w4'), sb })];
    live.push(...workers);
    for (const w of workers) expect((await w.done).code).toBe(0);
    expect(await jobStates(storeUrl, first)).toEqual([{ state: 'succeeded', n: 4 }]);
    expect(await status(first)).toBe(2);
    expect((await duplicateChecks(first)).find((c) => c.source.endsWith(ALDENMOOR))).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`batch ${copies}`),
    });

    // Exports from another computer carry the checks.
    const out = join(dir.path, 'invoices.csv');
    const r = await runCli(['export', first, '--format', 'invoices', '--out', out, ...elsewhere], env);
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(4);
    expect(rows.find((row) => row.source?.endsWith(MARLOWE))).toMatchObject({
      needs_review: 'yes',
      failed_checks: 'net_plus_vat',
      check_net_plus_vat: 'failed',
    });
    expect(rows.find((row) => row.source?.endsWith(ALDENMOOR))).toMatchObject({ needs_review: 'yes', failed_checks: 'duplicate' });
    expect(rows.filter((row) => row.needs_review === 'no')).toHaveLength(2);
    const ubl = join(dir.path, 'ubl');
    const exported = await runCli(['export', first, '--format', 'ubl', '--out', ubl, ...elsewhere], env);
    expect(exported.code).toBe(0);
    // Four invoices and the EN 16931 report: the PNG prints no buyer country, so it cannot declare it.
    expect(readdirSync(ubl).sort()).toEqual([
      'en16931-report.csv',
      'invoice-aldenmoor-INV-2026-0012.xml',
      'invoice-copperfinch-INV-2026-0047.xml',
      'invoice-halvorsen-INV-2026-0103.xml',
      'invoice-marlowe-INV-2026-0088.xml',
    ]);
    expect(exported.stdout).toContain('UBL: 3 invoice(s) pass EN 16931 and declare it; 1 could not');
    expect(readFileSync(join(ubl, 'invoice-marlowe-INV-2026-0088.xml'), 'utf8')).toContain('NEEDS REVIEW');

    // An e-invoice beside a scan: read from its XML by the worker, and counted so by status
    // (the store's jobs, read from another computer).
    const mixed = join(dir.path, 'mixed');
    mkdirSync(mixed);
    writeFileSync(join(mixed, 'xrechnung.xml'), ublXml({ ...NORDLICHT, number: 'RE-2026-2001' }));
    copyFileSync(join(INVOICES, MARLOWE), join(mixed, 'marlowe-again.png'));
    appendFileSync(join(mixed, 'marlowe-again.png'), Buffer.from([0]));
    const third = await create(mixed, 'mixed');
    const before = await runCli(['status', third, '--json', ...elsewhere], env);
    expect((JSON.parse(before.stdout) as { batches: { einvoices?: unknown }[] }).batches[0]?.einvoices).toEqual({ einvoices: 1, read: 0 });
    const reader = startWorker({ storeUrl, dataDir: join(dir.path, 'w5'), sb });
    live.push(reader);
    expect((await reader.done).code).toBe(0);
    const after = await runCli(['status', third, ...elsewhere], env);
    expect(after.stdout).toContain('  1 read from the e-invoice (no OCR, no cost)\n');
    const json = await runCli(['status', third, '--json', ...elsewhere], env);
    expect((JSON.parse(json.stdout) as { batches: { einvoices?: unknown }[] }).batches[0]?.einvoices).toEqual({ einvoices: 1, read: 1 });
  }, 120_000);
});
