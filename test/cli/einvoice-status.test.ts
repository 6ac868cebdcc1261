// `batchdesk status` says how many items of an OCR batch are e-invoices read from their XML (no OCR
// request, no cost): before the run as still to read, after it as read, in words and in --json.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { ciiXml, NORDLICHT, pdfWithAttachment, ublXml } from '../helpers/einvoice-files';
import { tempDir } from '../helpers/temp-dir';

interface StatusJson {
  batches: { id: string; sent_to: string | null; einvoices?: { einvoices: number; read: number } }[];
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
    // Nothing went to the API (the embedded sandbox here): the run and status say so, not "sent to".
    expect(run.stdout).toContain('  read on this computer: nothing was sent, no cost\n');
    expect(run.stdout).not.toContain('sent to ');
    const after = await runCli(['status', id, ...d]);
    expect(after.stdout).toContain('  3 read from the e-invoice (no OCR, no cost)\n');
    expect(after.stdout).toContain('  read on this computer: nothing was sent, no cost\n');
    expect(after.stdout).not.toContain('sent to ');
    expect(after.stdout).not.toContain('not read yet');
    const json = JSON.parse((await runCli(['status', id, '--json', ...d])).stdout) as StatusJson;
    expect(json.batches.find((b) => b.id === id)?.einvoices).toEqual({ einvoices: 3, read: 3 });
    expect(json.batches.find((b) => b.id === id)?.sent_to).toBeNull();
  });

  it('says where the rest of a mixed batch went', async () => {
    const d = ['--data-dir', join(dir.path, 'mixed-data')];
    const inbox = join(dir.path, 'mixed');
    mkdirSync(inbox);
    writeFileSync(join(inbox, 'xrechnung-ubl.xml'), ublXml({ ...NORDLICHT, number: 'RE-2026-1201' }));
    writeFileSync(join(inbox, 'xrechnung-cii.xml'), ciiXml({ ...NORDLICHT, number: 'RE-2026-1202' }));
    // The sandbox reads no text in this photo (the item fails), but it was sent there.
    copyFileSync(join(process.cwd(), 'test', 'fixtures', 'media', 'page.jpg'), join(inbox, 'scan.jpg'));
    const created = await runCli(['batch', 'create', 'ocr', inbox, ...d]);
    expect(created.code, created.stderr).toBe(0);
    // The estimate says why the e-invoices count no pages.
    expect(created.stdout).toContain('Estimated cost: €0.0100 for ~1 page (2 e-invoices read on this computer: no OCR, no cost).');
    const id = /^Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    await runCli(['run', id, ...d]);
    const after = await runCli(['status', id, ...d]);
    expect(after.stdout).toContain(
      '  sent to the embedded sandbox: the one other item; the 2 e-invoices are read on this computer (nothing sent for them, no cost)\n',
    );
  });
});
