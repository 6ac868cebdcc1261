// `batchdesk status` says how many items of an OCR batch are e-invoices read from their XML (no OCR
// request, no cost): before the run as still to read, after it as read, in words and in --json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { ciiXml, NORDLICHT, pdfWithAttachment, ublXml } from '../helpers/einvoice-files';
import { tempDir } from '../helpers/temp-dir';

interface StatusJson {
  batches: { id: string; einvoices?: { einvoices: number; read: number } }[];
}

describe('status of an OCR batch with e-invoices', () => {
  const dir = tempDir('batchdesk-einvoice-status-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('counts the e-invoices read at no cost, from the jobs', async () => {
    const d = ['--data-dir', join(dir.path, 'data')];
    const inbox = join(dir.path, 'inbox');
    mkdirSync(inbox);
    writeFileSync(join(inbox, 'xrechnung-ubl.xml'), ublXml(NORDLICHT));
    writeFileSync(join(inbox, 'xrechnung-cii.xml'), ciiXml({ ...NORDLICHT, number: 'RE-2026-1108' }));
    writeFileSync(join(inbox, 'zugferd.pdf'), pdfWithAttachment('factur-x.xml', ciiXml({ ...NORDLICHT, number: 'RE-2026-1109' }), 'Rechnung RE-2026-1109'));
    const created = await runCli(['batch', 'create', 'ocr', inbox, '--json', ...d]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;

    const before = await runCli(['status', id, ...d]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('  0 read from the e-invoice (no OCR, no cost); 3 more e-invoices not read yet\n');

    const run = await runCli(['run', id, ...d]);
    expect(run.code, run.stderr).toBe(0);
    const after = await runCli(['status', id, ...d]);
    expect(after.stdout).toContain('  3 read from the e-invoice (no OCR, no cost)\n');
    expect(after.stdout).not.toContain('not read yet');
    const json = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as StatusJson;
    expect(json.batches.find((b) => b.id === id)?.einvoices).toEqual({ einvoices: 3, read: 3 });
  });
});
