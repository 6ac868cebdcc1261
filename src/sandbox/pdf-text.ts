// Text of a PDF as it streams past: finds `stream ... endstream` bodies, keeps only small
// content streams (uncompressed or FlateDecode), and reads the strings shown by Tj/TJ/'/".
// Images, fonts and anything large are skipped without being held; past a few MB of kept text
// the collector gives up and the caller falls back to page counting.
import { inflateSync } from 'node:zlib';
import { PdfPageCounter } from '../shared/media';

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
const DICT_LOOKBACK = 1024;

export interface PdfTextLimits {
  /** Largest single stream body (raw or inflated) that is examined. */
  maxStreamBytes: number;
  /** Total extracted text kept before giving up. */
  maxTextChars: number;
}

const DEFAULT_LIMITS: PdfTextLimits = { maxStreamBytes: 1 << 20, maxTextChars: 4 << 20 };

type Current = { flate: boolean; skip: boolean; parts: Buffer[]; size: number };

export class PdfTextCollector {
  private pending: Buffer = Buffer.alloc(0);
  private current: Current | null = null;
  private textChars = 0;
  private gaveUp = false;
  /** Text of each content stream that showed text, in file order. */
  private readonly streamTexts: string[] = [];

  constructor(private readonly limits: PdfTextLimits = DEFAULT_LIMITS) {}

  push(chunk: Buffer): void {
    if (this.gaveUp) return;
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      if (this.current === null) {
        const i = buf.indexOf(STREAM, pos);
        // Need the end-of-line after the keyword to decide; keep a dictionary-sized lookback.
        if (i < 0 || i + STREAM.length + 2 > buf.length) {
          const keepFrom = i < 0 ? Math.max(pos, buf.length - DICT_LOOKBACK) : Math.max(0, i - DICT_LOOKBACK);
          this.pending = Buffer.from(buf.subarray(keepFrom));
          return;
        }
        const afterKeyword = i + STREAM.length;
        const isEnd = i >= 3 && buf.toString('latin1', i - 3, i) === 'end';
        let bodyAt = afterKeyword;
        if (buf[bodyAt] === 0x0d) bodyAt++;
        if (buf[bodyAt] === 0x0a) bodyAt++;
        if (isEnd || bodyAt === afterKeyword) {
          pos = afterKeyword;
          continue;
        }
        this.current = this.begin(buf.toString('latin1', Math.max(0, i - DICT_LOOKBACK), i));
        pos = bodyAt;
      } else {
        const k = buf.indexOf(ENDSTREAM, pos);
        if (k < 0) {
          const keepFrom = Math.max(pos, buf.length - ENDSTREAM.length + 1);
          this.collect(buf.subarray(pos, keepFrom));
          this.pending = Buffer.from(buf.subarray(keepFrom));
          return;
        }
        this.collect(buf.subarray(pos, k));
        this.finishStream();
        if (this.gaveUp) return;
        pos = k + ENDSTREAM.length;
      }
    }
  }

  private begin(before: string): Current {
    // The stream's dictionary is the last `<<...>>` before the keyword.
    const dict = before.slice(before.lastIndexOf('<<'));
    const filters = [...dict.matchAll(/\/(\w+Decode)\b/g)].map((m) => m[1]);
    const unsupported = filters.some((f) => f !== 'FlateDecode');
    const notContent = /\/Subtype\s*\/Image|\/Type\s*\/(XRef|ObjStm|XObject)|\/Length[123]\b/.test(dict);
    return { flate: filters.length > 0, skip: unsupported || notContent, parts: [], size: 0 };
  }

  private collect(bytes: Buffer): void {
    const c = this.current;
    if (!c || c.skip || bytes.length === 0) return;
    c.size += bytes.length;
    if (c.size > this.limits.maxStreamBytes) {
      c.skip = true;
      c.parts = [];
      return;
    }
    c.parts.push(Buffer.from(bytes));
  }

  private finishStream(): void {
    const c = this.current;
    this.current = null;
    if (!c || c.skip) return;
    let body: Buffer = Buffer.concat(c.parts);
    if (c.flate) {
      try {
        body = inflateSync(body, { maxOutputLength: this.limits.maxStreamBytes });
      } catch {
        return; // corrupt or too large once inflated: not a readable content stream
      }
    }
    const content = body.toString('latin1');
    if (!/\bBT\b/.test(content)) return;
    const text = textOfContentStream(content);
    if (text === '') return;
    this.textChars += text.length;
    if (this.textChars > this.limits.maxTextChars) {
      this.gaveUp = true;
      this.streamTexts.length = 0;
      return;
    }
    this.streamTexts.push(text);
  }

  /** Text per content stream, or null when the collector gave up (too much text). */
  finish(): string[] | null {
    return this.gaveUp ? null : [...this.streamTexts];
  }
}

/** Spreads content-stream texts over `pageCount` pages (one stream per page, in file order). */
export function assignPages(streamTexts: readonly string[], pageCount: number): string[] {
  const n = Math.max(1, pageCount, pageCount === 0 ? streamTexts.length : 0);
  const pages = Array.from({ length: n }, (_, i) => streamTexts[i] ?? '');
  if (streamTexts.length > n) pages[n - 1] = [pages[n - 1] ?? '', ...streamTexts.slice(n)].filter(Boolean).join('\n');
  return pages;
}

/**
 * WinAnsiEncoding (the standard fonts' encoding) differs from Latin-1 in 0x80-0x9F: the euro sign,
 * typographic quotes, dashes, ... A byte there is the WinAnsi character, not a control character.
 */
const WIN_ANSI_80: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

function winAnsi(text: string): string {
  return text.replace(/[\x80-\x9f]/g, (c) => WIN_ANSI_80[c.charCodeAt(0)] ?? c);
}

/** Reads the text-showing operators of one content stream into lines. */
export function textOfContentStream(content: string): string {
  const lines: string[] = [];
  let line = '';
  let operands: Array<string | number | Array<string | number>> = [];
  const newline = () => {
    if (line.trim() !== '') lines.push(winAnsi(line.trim()));
    line = '';
  };
  let i = 0;
  const n = content.length;
  while (i < n) {
    const ch = content[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '%') {
      while (i < n && content[i] !== '\n' && content[i] !== '\r') i++;
    } else if (ch === '(') {
      const [s, next] = readLiteral(content, i);
      operands.push(s);
      i = next;
    } else if (ch === '<' && content[i + 1] !== '<') {
      const end = content.indexOf('>', i);
      operands.push(hexString(content.slice(i + 1, end < 0 ? n : end)));
      i = end < 0 ? n : end + 1;
    } else if (ch === '[') {
      const arr: Array<string | number> = [];
      i++;
      while (i < n && content[i] !== ']') {
        const c = content[i] ?? '';
        if (c === '(') {
          const [s, next] = readLiteral(content, i);
          arr.push(s);
          i = next;
        } else if (c === '<') {
          const end = content.indexOf('>', i);
          arr.push(hexString(content.slice(i + 1, end < 0 ? n : end)));
          i = end < 0 ? n : end + 1;
        } else {
          const m = /^[-+]?(\d+\.?\d*|\.\d+)/.exec(content.slice(i, i + 32));
          if (m) {
            arr.push(Number(m[0]));
            i += m[0].length;
          } else i++;
        }
      }
      operands.push(arr);
      i++;
    } else {
      const m = /^[^\s()<>[\]{}/%]+|^\/[^\s()<>[\]{}/%]*|^[<>{}\]]+/.exec(content.slice(i, i + 64));
      const token = m ? m[0] : ch;
      i += token.length;
      if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(token)) {
        operands.push(Number(token));
        continue;
      }
      if (token.startsWith('/') || token === '<<' || token === '>>') continue;
      const last = operands[operands.length - 1];
      if (token === 'Tj' && typeof last === 'string') line += last;
      else if ((token === "'" || token === '"') && typeof last === 'string') {
        newline();
        line += last;
      } else if (token === 'TJ' && Array.isArray(last)) {
        for (const el of last) {
          if (typeof el === 'string') line += el;
          else if (el < -200) line += ' '; // a large negative kern is a word gap
        }
      } else if (token === 'Td' || token === 'TD' || token === 'T*' || token === 'Tm' || token === 'ET') newline();
      operands = [];
    }
  }
  newline();
  return lines.join('\n');
}

function readLiteral(s: string, start: number): [string, number] {
  let depth = 0;
  let out = '';
  let i = start;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (c === '\\') {
      const e = s[i + 1] ?? '';
      const map: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
      if (map[e] !== undefined) {
        out += map[e];
        i += 2;
      } else if (/[0-7]/.test(e)) {
        const m = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4)) ?? ['0'];
        out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
        i += 1 + m[0].length;
      } else if (e === '\r' || e === '\n') {
        i += e === '\r' && s[i + 2] === '\n' ? 3 : 2; // line continuation
      } else {
        out += e;
        i += 2;
      }
      continue;
    }
    if (c === '(') {
      depth++;
      if (depth > 1) out += c;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return [out, i + 1];
      out += c;
    } else out += c;
    i++;
  }
  return [out, i];
}

function hexString(hex: string): string {
  const h = hex.replace(/[^0-9a-fA-F]/g, '');
  let out = '';
  for (let i = 0; i < h.length; i += 2) out += String.fromCharCode(parseInt(h.slice(i, i + 2).padEnd(2, '0'), 16));
  return out;
}

/**
 * Why a PDF held whole in `bytes` cannot be read, or null. A real OCR service parses the file
 * and refuses one without objects, without a trailer or cross-reference section, or without
 * pages (page objects may hide in compressed object streams, which count as pages being there).
 */
export function pdfDamage(bytes: Buffer): string | null {
  const text = bytes.toString('latin1');
  if (!/\d+\s+\d+\s+obj\b/.test(text)) return 'it holds no PDF objects';
  if (!/\btrailer\b|\bstartxref\b|\/Type\s*\/XRef\b/.test(text)) return 'it has no trailer or cross-reference section (it may be cut short)';
  const pages = new PdfPageCounter();
  pages.push(bytes);
  if (pages.finish() === 0 && !/\/Type\s*\/ObjStm\b/.test(text)) return 'it has no pages';
  return null;
}
