// Reads a multipart upload in one streaming pass: form fields are kept (small), each file part
// is hashed and measured, its first 64 KiB kept for sniffing, and the few metadata the fake
// results need (WAV ICMT, PNG Description, PDF text and pages) are picked up on the way.
import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HEAD_BYTES, PdfPageCounter } from '../shared/media';
import { ChunkScanner, PNG_FORMAT, RIFF_FORMAT, riffInfoText } from './chunk-scanner';
import { bufferChunks, invalid } from './http';
import { boundaryOf, MultipartError, parseMultipart, type PartInfo, type PartSink } from './multipart';
import { assignPages, PdfTextCollector } from './pdf-text';
import { pngText } from './png';

const MAX_FIELD_BYTES = 64 * 1024;

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string | null;
  size: number;
  sha256: string;
  /** The first HEAD_BYTES bytes. */
  head: Buffer;
  /** Script carried by the file itself: WAV LIST/INFO ICMT or PNG tEXt Description. */
  embeddedText: string | null;
  /**
   * PDF only: page count, and text per page when it could be extracted (null otherwise: no text
   * layer, or `textGaveUp` when it held more text than the sandbox keeps).
   */
  pdf: { pages: number; pageTexts: string[] | null; textGaveUp: boolean } | null;
}

export interface Upload {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** Largest buffer the multipart parser held between chunks. */
  peakParserBytes: number;
}

type Sniffed = 'pending' | 'pdf' | 'wav' | 'png' | 'other';

/** Consumes one file part; everything it keeps is bounded whatever the file size. */
class FileSink implements PartSink {
  private readonly hash: Hash = createHash('sha256');
  private readonly headParts: Buffer[] = [];
  private headLen = 0;
  private size = 0;
  private kind: Sniffed = 'pending';
  private scanner: ChunkScanner | null = null;
  private pdfText: PdfTextCollector | null = null;
  private pdfPages: PdfPageCounter | null = null;

  constructor(
    private readonly info: PartInfo,
    private readonly done: (f: UploadedFile) => void,
  ) {}

  write(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headLen < HEAD_BYTES) {
      const take = chunk.subarray(0, HEAD_BYTES - this.headLen);
      this.headParts.push(Buffer.from(take));
      this.headLen += take.length;
    }
    if (this.kind === 'pending') {
      // Decide once 12 bytes are in, then replay the head to the chosen reader.
      if (this.headLen >= 12) this.sniff(Buffer.concat(this.headParts));
      return;
    }
    this.feed(chunk);
  }

  private sniff(head: Buffer): void {
    const sig = head.toString('latin1', 0, 12);
    if (sig.startsWith('%PDF-')) {
      this.kind = 'pdf';
      this.pdfText = new PdfTextCollector();
      this.pdfPages = new PdfPageCounter();
    } else if (sig.startsWith('RIFF') && sig.slice(8, 12) === 'WAVE') {
      this.kind = 'wav';
      this.scanner = new ChunkScanner(RIFF_FORMAT);
    } else if (head[0] === 0x89 && sig.slice(1, 4) === 'PNG') {
      this.kind = 'png';
      this.scanner = new ChunkScanner(PNG_FORMAT);
    } else {
      this.kind = 'other';
    }
    this.feed(head);
  }

  private feed(chunk: Buffer): void {
    this.scanner?.push(chunk);
    this.pdfText?.push(chunk);
    this.pdfPages?.push(chunk);
  }

  end(): void {
    const head = Buffer.concat(this.headParts);
    if (this.kind === 'pending') this.sniff(head);
    let embeddedText: string | null = null;
    if (this.kind === 'wav' && this.scanner) embeddedText = riffInfoText(this.scanner.chunks, 'ICMT');
    if (this.kind === 'png' && this.scanner) embeddedText = pngText(this.scanner.chunks, 'Description');
    let pdf: UploadedFile['pdf'] = null;
    if (this.kind === 'pdf' && this.pdfText && this.pdfPages) {
      const pages = this.pdfPages.finish();
      const texts = this.pdfText.finish();
      pdf = { pages: Math.max(1, pages), pageTexts: texts && texts.length > 0 ? assignPages(texts, pages) : null, textGaveUp: texts === null };
    }
    this.done({
      field: this.info.name,
      filename: this.info.filename ?? '',
      contentType: this.info.contentType,
      size: this.size,
      sha256: this.hash.digest('hex'),
      head,
      embeddedText,
      pdf,
    });
  }
}

class FieldSink implements PartSink {
  private readonly parts: Buffer[] = [];
  private size = 0;
  constructor(
    private readonly name: string,
    private readonly done: (name: string, value: string) => void,
  ) {}
  write(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_FIELD_BYTES) throw new MultipartError(`Form field "${this.name}" is larger than ${MAX_FIELD_BYTES} bytes.`);
    this.parts.push(Buffer.from(chunk));
  }
  end(): void {
    this.done(this.name, Buffer.concat(this.parts).toString('utf8'));
  }
}

/** Streams a multipart/form-data request body; 415 when it is not multipart, 400 when malformed. */
export async function readUpload(req: IncomingMessage): Promise<Upload> {
  const boundary = boundaryOf(req.headers['content-type']);
  if (boundary === null) {
    throw invalid(415, 'unsupported_media_type', 'Send the file as multipart/form-data with a "file" part.');
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    const { peakPendingBytes } = await parseMultipart(bufferChunks(req), boundary, (info) =>
      info.filename !== null
        ? new FileSink(info, (f) => files.push(f))
        : new FieldSink(info.name, (name, value) => {
            fields[name] = value;
          }),
    );
    return { fields, files, peakParserBytes: peakPendingBytes };
  } catch (e) {
    if (e instanceof MultipartError) throw invalid(400, 'malformed_multipart', e.message);
    throw e;
  }
}
