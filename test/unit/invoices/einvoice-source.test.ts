// The job dialog shows an e-invoice's XML as text: the XML file laid out one element a line when it
// was written on one, the XML a ZUGFeRD/Factur-X PDF carries, and only the first 512 KiB of a huge one.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { einvoiceSource, SHOWN_XML_BYTES } from '../../../src/main/engine/capabilities/einvoice-source';
import { prettyXml } from '../../../src/main/engine/invoices/xml-pretty';
import { ciiXml, NORDLICHT, pdfWithAttachment, ublXml } from '../../helpers/einvoice-files';

const dir = mkdtempSync(join(tmpdir(), 'batchdesk-einvoice-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: string | Uint8Array, mime: string) => {
  const path = join(dir, name);
  writeFileSync(path, body);
  return { path, mime, size: statSync(path).size };
};

describe('prettyXml', () => {
  it('lays out XML written on one line, an element holding text on one line', () => {
    expect(prettyXml('<?xml version="1.0"?><a><b>x &amp; y</b><c/><!-- n --><d><e>1</e></d></a>')).toBe(
      ['<?xml version="1.0"?>', '<a>', '  <b>x &amp; y</b>', '  <c/>', '  <!-- n -->', '  <d>', '    <e>1</e>', '  </d>', '</a>'].join('\n'),
    );
  });
  it('keeps XML that is laid out already as it is', () => {
    const laid = '<a>\n  <b>1</b>\n  <c>2</c>\n</a>\n';
    expect(prettyXml(laid)).toBe(laid);
  });
});

describe('einvoiceSource', () => {
  it('gives an XML file as text, the markup kept as characters', async () => {
    const xml = ublXml(NORDLICHT);
    const s = await einvoiceSource(file('ubl.xml', xml, 'application/xml'));
    expect(s).toMatchObject({ cut: false, attachment: null, bytes: Buffer.byteLength(xml) });
    expect(s?.text).toContain('<cbc:ID>RE-2026-1107</cbc:ID>');
  });

  it('lays out an XML file written on one line', async () => {
    const s = await einvoiceSource(file('one-line.xml', ciiXml(NORDLICHT).replace(/>\s+</g, '><'), 'application/xml'));
    expect(s?.text.split('\n').length).toBeGreaterThan(20);
  });

  it('gives the XML a ZUGFeRD/Factur-X PDF carries, naming the attachment', async () => {
    const xml = ciiXml({ ...NORDLICHT, number: 'RE-2026-1109' });
    const s = await einvoiceSource(file('zugferd.pdf', pdfWithAttachment('factur-x.xml', xml, 'Rechnung RE-2026-1109'), 'application/pdf'));
    expect(s).toMatchObject({ attachment: 'factur-x.xml', cut: false });
    expect(s?.text).toContain('RE-2026-1109');
  });

  it('cuts a huge XML at a whole tag and says so', async () => {
    const big = `<a>${'<b>0123456789</b>\n'.repeat(40_000)}</a>`;
    const s = await einvoiceSource(file('big.xml', big, 'application/xml'));
    expect(s?.cut).toBe(true);
    expect(s?.bytes).toBe(Buffer.byteLength(big));
    expect(Buffer.byteLength(s?.text ?? '')).toBeLessThanOrEqual(SHOWN_XML_BYTES);
    expect(s?.text.endsWith('</b>')).toBe(true);
  });

  it('has nothing for a file that is neither', async () => {
    expect(await einvoiceSource(file('scan.png', 'x', 'image/png'))).toBeNull();
  });
});
