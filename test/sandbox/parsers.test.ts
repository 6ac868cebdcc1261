// Unit tests of the streaming readers: results must not depend on how the bytes are chunked.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ChunkScanner, RIFF_FORMAT, riffInfoText } from '../../src/sandbox/chunk-scanner';
import { boundaryOf, MultipartError, MultipartParser, type PartInfo } from '../../src/sandbox/multipart';
import { PdfTextCollector, textOfContentStream } from '../../src/sandbox/pdf-text';
import { invoiceFields } from '../../src/sandbox/results';
import { multipart, smallWav, textPdf } from './helpers';

function chunked(buf: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let pos = 0;
  let i = 0;
  while (pos < buf.length) {
    const n = sizes[i++ % sizes.length] ?? 1;
    out.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  return out;
}

function parseAll(body: Buffer, boundary: string, sizes: number[]): Array<{ info: PartInfo; data: Buffer }> {
  const parts: Array<{ info: PartInfo; data: Buffer }> = [];
  const parser = new MultipartParser(boundary, (info) => {
    const chunks: Buffer[] = [];
    return {
      write: (c) => chunks.push(Buffer.from(c)),
      end: () => parts.push({ info, data: Buffer.concat(chunks) }),
    };
  });
  for (const c of chunked(body, sizes)) parser.write(c);
  parser.end();
  return parts;
}

describe('MultipartParser', () => {
  const boundary = 'XyZ-123';
  // File content that contains near-misses of the delimiter.
  const file = Buffer.concat([Buffer.from('start\r\n--XyZ-12\r\n--XyZ\r\n-'), Buffer.alloc(5000, 7), Buffer.from('\r\n--XyZ-1234 end')]);
  const body = multipart(boundary, { tier: 'basic', note: 'héllo' }, { name: 'f ü.bin', data: file });

  for (const sizes of [[body.length], [1], [2, 3, 5, 7], [64, 1, 1000]]) {
    it(`parses identically with chunk sizes ${sizes.join(',')}`, () => {
      const parts = parseAll(body, boundary, sizes);
      expect(parts.map((p) => p.info.name)).toEqual(['tier', 'note', 'file']);
      expect(parts[0]?.data.toString()).toBe('basic');
      expect(parts[1]?.data.toString()).toBe('héllo');
      expect(parts[2]?.info.filename).toBe('f ü.bin');
      expect(parts[2]?.data.equals(file)).toBe(true);
    });
  }

  it('rejects a body without its closing boundary', () => {
    const parser = new MultipartParser(boundary, () => ({ write: () => {}, end: () => {} }));
    parser.write(body.subarray(0, body.length - 10));
    expect(() => parser.end()).toThrow(MultipartError);
  });

  it('reads the boundary parameter', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(boundaryOf('application/json')).toBeNull();
  });
});

describe('ChunkScanner (RIFF)', () => {
  it('finds ICMT before or after the data chunk, whatever the chunking', () => {
    const wav = smallWav(1, 'Script in front');
    for (const sizes of [[1], [3, 11], [wav.length]]) {
      const s = new ChunkScanner(RIFF_FORMAT);
      for (const c of chunked(wav, sizes)) s.push(c);
      expect(riffInfoText(s.chunks, 'ICMT')).toBe('Script in front');
    }
    // Move the LIST chunk after the data chunk.
    const listAt = wav.indexOf('LIST');
    const dataAt = wav.indexOf('data');
    const moved = Buffer.concat([wav.subarray(0, listAt), wav.subarray(dataAt), wav.subarray(listAt, dataAt)]);
    const s = new ChunkScanner(RIFF_FORMAT);
    for (const c of chunked(moved, [5, 1000])) s.push(c);
    expect(riffInfoText(s.chunks, 'ICMT')).toBe('Script in front');
  });
});

describe('PdfTextCollector', () => {
  it('extracts the same text with any chunking, including FlateDecode streams, and skips images', () => {
    const plain = textPdf([['Page one (a)'], ['Page two']]);
    const content = 'BT 72 700 Td (Compressed line) Tj ET';
    const z = deflateSync(Buffer.from(content));
    const extra = Buffer.concat([
      Buffer.from(`9 0 obj << /Length ${z.length} /Filter /FlateDecode >>\nstream\n`),
      z,
      Buffer.from('\nendstream\nendobj\n10 0 obj << /Subtype /Image /Length 12 >>\nstream\nBT (no) Tj ET\nendstream\n'),
    ]);
    const pdf = Buffer.concat([plain, extra]);
    const results = [[1], [7, 13], [pdf.length]].map((sizes) => {
      const c = new PdfTextCollector();
      for (const ch of chunked(pdf, sizes)) c.push(ch);
      return c.finish();
    });
    expect(results[0]).toEqual(['Page one (a)', 'Page two', 'Compressed line']);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('gives up past the text limit so the caller falls back to page counting', () => {
    const c = new PdfTextCollector({ maxStreamBytes: 1 << 20, maxTextChars: 10 });
    c.push(textPdf([['a long line of text that passes the limit']]));
    expect(c.finish()).toBeNull();
  });

  it('reads TJ arrays, escapes and hex strings', () => {
    expect(textOfContentStream('BT [(Hel) -20 (lo) -400 (World)] TJ T* <41424344> Tj (\\(x\\)\\101) Tj ET')).toBe('Hello World\nABCD(x)A');
  });
});

describe('invoiceFields', () => {
  it('parses common layouts', () => {
    expect(invoiceFields('Blue Harbor Trading Ltd\nInvoice #: 2024-77\nInvoice Date: 2024-01-31\nTotal due: £ 99.90')).toEqual({
      vendor: 'Blue Harbor Trading Ltd',
      invoice_number: '2024-77',
      issue_date: '2024-01-31',
      invoice_date: '2024-01-31',
      gross: '99.90',
      total: '99.90',
      currency: 'GBP',
    });
    // More in test/unit/sandbox/invoice-extract.test.ts.
  });
});
