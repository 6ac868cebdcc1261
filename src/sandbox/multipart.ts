// Streaming multipart/form-data parser (RFC 7578). It holds at most one header block and a
// delimiter-sized tail between chunks, and hands part bodies to a sink as they arrive, so an
// upload of any size passes through in bounded memory.

export interface PartInfo {
  name: string;
  filename: string | null;
  contentType: string | null;
}

export interface PartSink {
  /** The chunk is a view on the network buffer: copy what you keep. */
  write(chunk: Buffer): void;
  end(): void;
}

export class MultipartError extends Error {}

const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PARTS = 64;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart/form-data Content-Type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function parseHeaders(block: string): PartInfo {
  let name: string | null = null;
  let filename: string | null = null;
  let contentType: string | null = null;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'content-disposition') {
      if (!/^form-data\b/i.test(value)) throw new MultipartError('A part is not form-data.');
      name = paramOf(value, 'name');
      filename = paramOf(value, 'filename');
    } else if (field === 'content-type') {
      contentType = value;
    }
  }
  if (name === null) throw new MultipartError('A part has no Content-Disposition name.');
  return { name, filename, contentType };
}

function paramOf(header: string, param: string): string | null {
  const re = new RegExp(`;\\s*${param}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i');
  const m = re.exec(header);
  if (!m) return null;
  if (m[1] !== undefined) return m[1].replace(/\\(.)/g, '$1');
  return m[2] ?? null;
}

type State = 'preamble' | 'headers' | 'body' | 'done';

export class MultipartParser {
  private readonly delimiter: Buffer;
  // Starts with CRLF so the first boundary line matches the same delimiter as later ones.
  private pending: Buffer = Buffer.from(CRLF);
  private state: State = 'preamble';
  private sink: PartSink | null = null;
  private parts = 0;
  /** Largest number of bytes held between chunks; the streaming test asserts it stays small. */
  peakPendingBytes = 0;

  constructor(
    boundary: string,
    private readonly onPart: (info: PartInfo) => PartSink,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  write(chunk: Buffer): void {
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    let step = this.step(buf, pos);
    while ('advance' in step) {
      pos = step.advance;
      step = this.step(buf, pos);
    }
    // The unconsumed rest is carried over; copied so the network chunk can be freed.
    this.pending = Buffer.from(buf.subarray(step.waitFrom));
    this.peakPendingBytes = Math.max(this.peakPendingBytes, this.pending.length);
  }

  /**
   * What follows a delimiter match at `at`: "--" closes the body, optional blanks + CRLF start a
   * part; anything else means the bytes were content that merely looks like a delimiter.
   */
  private delimiterEnd(buf: Buffer, at: number): 'wait' | 'close' | 'not_delimiter' | { partAt: number } {
    if (buf.length - at < 2) return 'wait';
    if (buf[at] === 0x2d && buf[at + 1] === 0x2d) return 'close';
    let j = at;
    while (j < buf.length && j - at <= 256 && (buf[j] === 0x20 || buf[j] === 0x09)) j++;
    if (j - at > 256) return 'not_delimiter';
    if (j + 1 >= buf.length) return 'wait';
    return buf[j] === 0x0d && buf[j + 1] === 0x0a ? { partAt: j + 2 } : 'not_delimiter';
  }

  /** Consumes from buf at pos: either a new position, or where to resume once more input came. */
  private step(buf: Buffer, pos: number): { advance: number } | { waitFrom: number } {
    switch (this.state) {
      case 'done':
        return { waitFrom: buf.length }; // the epilogue is ignored
      case 'preamble': {
        const i = buf.indexOf(this.delimiter, pos);
        if (i < 0) return { waitFrom: Math.max(pos, buf.length - this.delimiter.length + 1) };
        const end = this.delimiterEnd(buf, i + this.delimiter.length);
        if (end === 'wait') return { waitFrom: i };
        if (end === 'not_delimiter') return { advance: i + 1 };
        if (end === 'close') {
          this.state = 'done';
          return { waitFrom: buf.length };
        }
        this.state = 'headers';
        return { advance: end.partAt };
      }
      case 'headers': {
        let blockEnd: number;
        let bodyStart: number;
        if (buf.length - pos >= 2 && buf[pos] === 0x0d && buf[pos + 1] === 0x0a) {
          blockEnd = pos; // a part without headers
          bodyStart = pos + 2;
        } else {
          const i = buf.indexOf(HEADER_END, pos);
          if (i < 0) {
            if (buf.length - pos > MAX_HEADER_BYTES) throw new MultipartError('Part headers are too large.');
            return { waitFrom: pos };
          }
          blockEnd = i;
          bodyStart = i + 4;
        }
        if (++this.parts > MAX_PARTS) throw new MultipartError(`More than ${MAX_PARTS} parts.`);
        // Header values are UTF-8 in practice (file names); RFC 7578 allows it.
        this.sink = this.onPart(parseHeaders(buf.toString('utf8', pos, blockEnd)));
        this.state = 'body';
        return { advance: bodyStart };
      }
      case 'body': {
        const sink = this.sink;
        if (!sink) throw new MultipartError('internal: no part sink');
        const i = buf.indexOf(this.delimiter, pos);
        if (i < 0) {
          // Keep a possible partial delimiter at the end; everything before it is body.
          const safe = Math.max(pos, buf.length - this.delimiter.length + 1);
          if (safe > pos) sink.write(buf.subarray(pos, safe));
          return { waitFrom: safe };
        }
        const end = this.delimiterEnd(buf, i + this.delimiter.length);
        if (end === 'wait') {
          if (i > pos) sink.write(buf.subarray(pos, i));
          return { waitFrom: i };
        }
        if (end === 'not_delimiter') {
          sink.write(buf.subarray(pos, i + 1));
          return { advance: i + 1 };
        }
        if (i > pos) sink.write(buf.subarray(pos, i));
        sink.end();
        this.sink = null;
        if (end === 'close') {
          this.state = 'done';
          return { waitFrom: buf.length };
        }
        this.state = 'headers';
        return { advance: end.partAt };
      }
    }
  }

  /** Call at the end of the request body; throws when the closing boundary never came. */
  end(): void {
    if (this.state !== 'done') throw new MultipartError('The multipart body ended before its closing boundary.');
  }
}

/** Feeds a whole stream through the parser; the for-await loop gives natural backpressure. */
export async function parseMultipart(
  chunks: AsyncIterable<Buffer>,
  boundary: string,
  onPart: (info: PartInfo) => PartSink,
): Promise<{ peakPendingBytes: number }> {
  const parser = new MultipartParser(boundary, onPart);
  for await (const c of chunks) parser.write(c);
  parser.end();
  return { peakPendingBytes: parser.peakPendingBytes };
}
