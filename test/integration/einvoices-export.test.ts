// The window's Export menu, "E-invoices (UBL) with EN 16931 report": batches.export writes one zip
// with a UBL file per invoice read and the EN 16931 report naming each, made by the same UBL
// export and check as `batchdesk export --format ubl`; a batch of other results is refused with its
// code; the menu's formats are the contract's (one record, shared/export-formats.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { methods } from '../../src/shared/contract-calls';
import { WINDOW_EXPORT_FORMATS, windowExportsFor } from '../../src/shared/export-formats';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';
import { readZip } from '../helpers/zip';
import { INVOICES, RECORDINGS } from './harness';

describe('export: e-invoices (UBL) with the EN 16931 report', () => {
  const dir = tempDir('batchdesk-einvoices-export-');
  let sb: SandboxHandle;
  let service: AppService;

  beforeAll(async () => {
    sb = await startSandbox();
    service = new AppService({
      dataDir: join(dir.path, 'data'),
      secrets: emptyKeychain,
      transport: 'electron',
      apiUrl: sb.url,
      env: { BATCHDESK_API_KEY: sb.apiKey },
      config: { backoff: { baseMs: 5, capMs: 50, maxTries: 4 } },
    });
  });
  afterAll(async () => {
    await service.close();
    await sb.close();
    dir.cleanup();
  });

  const call = async <T>(method: string, arg: unknown): Promise<T> => {
    const r = await service.call(method, arg);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.result as T;
  };
  const runToEnd = async (id: string): Promise<{ status: string; counts: { succeeded: number } }> => {
    await call('batches.start', { id });
    for (let i = 0; i < 600; i++) {
      const b = await call<{ status: string; counts: { succeeded: number } }>('batches.get', { id });
      if (b.status === 'done' || b.status === 'done_with_failures') return b;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`batch ${id} did not finish`);
  };

  it('zips one UBL invoice per invoice read, and the report naming each', async () => {
    const scans = readdirSync(INVOICES).filter((f) => /\.(pdf|png)$/.test(f));
    const created = await call<{ batch: { id: string } }>('batches.create', { capability: 'ocr', paths: [INVOICES] });
    const id = created.batch.id;
    const batch = await runToEnd(id);
    expect(batch.counts.succeeded).toBe(scans.length);
    // A reviewer accepted one of them: it stays one invoice, its file says so.
    const jobs = await call<{ rows: { id: number }[] }>('jobs.list', { batchId: id, offset: 0, limit: 50 });
    const first = jobs.rows[0]?.id ?? 0;
    await call('reviews.save', { jobId: first, decision: 'accepted' });

    const r = await call<{ fileName: string; rows: number; token: string; ubl: { declared: number; notDeclared: number; report: string } }>('batches.export', {
      id,
      format: 'einvoices',
    });
    expect(r.fileName).toMatch(new RegExp(`-${id}-einvoices\\.zip$`));
    expect(r.rows).toBe(scans.length);
    expect(r.ubl.report).toBe('en16931-report.csv');
    expect(r.ubl.declared + r.ubl.notDeclared).toBe(scans.length);

    const file = service.download(r.token);
    expect(file?.fileName).toBe(r.fileName);
    const entries = await readZip(file?.path ?? '');
    const xml = [...entries.keys()].filter((n) => n.endsWith('.xml')).sort();
    // One UBL file per scan, named after it; nothing else but the report.
    expect(xml).toEqual(scans.map((s) => s.replace(/\.(pdf|png)$/, '.xml')).sort());
    expect([...entries.keys()].sort()).toEqual([...xml, 'en16931-report.csv'].sort());
    for (const name of xml) {
      const text = entries.get(name)?.toString('utf8') ?? '';
      expect(text, name).toMatch(/<(Invoice|CreditNote) xmlns="urn:oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2"/);
      expect(text, name).toMatch(/<cbc:ID>[^<]+<\/cbc:ID>/);
    }
    // The report: a row per UBL file, under the name it has in the zip.
    const report = (entries.get('en16931-report.csv')?.toString('utf8') ?? '')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(report[0]).toBe('item,file,en16931,missing_business_terms');
    expect(
      report
        .slice(1)
        .map((row) => row.split(',')[1])
        .sort(),
    ).toEqual(xml);
    expect(report.slice(1).filter((row) => row.split(',')[2] === 'yes')).toHaveLength(r.ubl.declared);
    // The accepted invoice's file says it was accepted by a reviewer.
    const acceptedName =
      (await call<{ source: string }>('jobs.get', { id: first })).source
        .split('/')
        .pop()
        ?.replace(/\.(pdf|png)$/, '.xml') ?? '';
    expect(entries.get(acceptedName)?.toString('utf8')).toMatch(/Reviewed in Batchdesk and accepted by/);
  });

  it('refuses it for a batch of other results, with the code the window words', async () => {
    const created = await call<{ batch: { id: string } }>('batches.create', {
      capability: 'transcribe',
      paths: [join(RECORDINGS, 'call-001-double-charge.wav')],
    });
    const r = await service.call('batches.export', { id: created.batch.id, format: 'einvoices' });
    expect(r.ok ? null : r.error.refusal).toEqual({ code: 'export_format', format: 'ubl', capability: 'transcribe' });
  });

  it('refuses it before anything succeeded: there is nothing to zip', async () => {
    // The same scans again (allowed): a batch not started yet.
    const created = await call<{ batch: { id: string } }>('batches.create', { capability: 'ocr', paths: [INVOICES], allowResend: true });
    const r = await service.call('batches.export', { id: created.batch.id, format: 'einvoices' });
    expect(r.ok ? null : r.error.refusal).toMatchObject({ code: 'nothing_succeeded' });
  });

  it('takes exactly the formats the menu offers', () => {
    const format = methods['batches.export'].arg.shape.format;
    expect(format.options).toEqual([...WINDOW_EXPORT_FORMATS]);
    expect(windowExportsFor(true)).toContain('einvoices');
    expect(windowExportsFor(false)).toEqual(['csv', 'json', 'txt']);
  });
});
