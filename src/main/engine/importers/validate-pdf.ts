// PDF structure and page count by pdf.js (a maintained, complete PDF parser), fed by positioned
// reads of the file through a PDFDataRangeTransport: only the trailer, the cross-reference table
// and the page tree are read, so a 1 GB scan costs a few 64 KiB reads. A damaged cross-reference
// table makes pdf.js scan the whole file to rebuild it; a read budget stops that for big files.
import { FIX_DOCUMENT, type Unreadable } from './format-check';
import { loadPdfjs, type Pdfjs } from './pdfjs';
import { pdfEInvoice, type PdfEInvoice } from './pdf-einvoice';
import { FIX_EINVOICE } from './validate-xml';

export interface PdfReadOptions {
  /** Most bytes pdf.js may read from one file; past it the file is refused. */
  maxReadBytes?: number;
  signal?: AbortSignal;
}

/** Positioned reads of the file (an open FileHandle, or a file already in memory). */
export interface PositionedReads {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** `einvoice`: the e-invoice the PDF carries (ZUGFeRD/Factur-X), which is then what is read. */
export type PdfPages = ({ ok: true; pages: number; einvoice: Extract<PdfEInvoice, { kind: 'einvoice' }> | null } | { ok: false; unreadable: Unreadable }) & {
  bytesRead: number;
};

/** Enough for the index and page tree of any sound PDF; small files are always read whole if needed. */
export const MAX_PDF_READ_BYTES = 32 * 1024 * 1024;
/** pdf.js keeps a (sparse, lazily committed) typed array as long as the file: at most 4 GiB. */
const MAX_PDF_BYTES = 2 ** 32 - 1;
const CHUNK_BYTES = 64 * 1024;
const WHAT = 'is not a readable PDF document';

class ReadBudgetSpent extends Error {}
class FileShrank extends Error {}

function megabytes(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`;
}

/** A transport that serves pdf.js's range requests from the open file, within a budget. */
function fileTransport(pdfjs: Pdfjs, handle: PositionedReads, size: number, budget: number, fail: (err: unknown) => void) {
  class FileRangeTransport extends pdfjs.PDFDataRangeTransport {
    bytesRead = 0;
    stopped = false;

    override requestDataRange(begin: number, end: number): void {
      if (this.stopped) return;
      const length = end - begin;
      if (this.bytesRead + length > budget) {
        this.stopped = true;
        fail(new ReadBudgetSpent());
        return;
      }
      this.bytesRead += length;
      const buffer = new Uint8Array(length);
      handle.read(buffer, 0, length, begin).then(
        ({ bytesRead }) => {
          if (this.stopped) return;
          if (bytesRead !== length) fail(new FileShrank());
          else this.onDataRange(begin, buffer);
        },
        (err: unknown) => fail(err),
      );
    }
  }
  return new FileRangeTransport(size, null);
}

function fromPdfjsError(err: unknown, size: number, budget: number): Unreadable | null {
  if (err instanceof ReadBudgetSpent) {
    return {
      cause: `${WHAT}: its cross-reference table (the index of its objects) is damaged, and repairing it would mean reading far more than ${megabytes(budget)} of this ${megabytes(size)} file`,
      fix: 'Open it in a PDF reader and save it again, or print it to a new PDF, then add the copy.',
    };
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') {
    return {
      damage: 'password',
      cause: 'is protected by a password, so it cannot be read',
      fix: 'Open it, remove the password (for example by printing it to a new PDF), and add the copy, or leave it out.',
    };
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException' || name === 'MissingPDFException') {
    const detail = err instanceof Error && err.message ? ` (${err.message.replace(/\.$/, '')})` : '';
    return { cause: `${WHAT}: its structure is damaged or incomplete${detail}`, fix: FIX_DOCUMENT };
  }
  return null; // anything else is not about this PDF's content: let the caller report it
}

/** Page count of the PDF open at `handle`, or why it cannot be read. */
export async function readPdfPages(handle: PositionedReads, size: number, opts: PdfReadOptions = {}): Promise<PdfPages> {
  const budget = opts.maxReadBytes ?? MAX_PDF_READ_BYTES;
  if (size > MAX_PDF_BYTES) {
    return {
      ok: false,
      bytesRead: 0,
      unreadable: {
        damage: 'too_large',
        cause: `is a ${megabytes(size)} PDF, larger than the 4 GB Batchdesk can check`,
        fix: 'Split it into smaller PDFs and add those, or leave it out.',
      },
    };
  }
  opts.signal?.throwIfAborted();
  const pdfjs = await loadPdfjs();
  let rejectFailure: (err: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => {
    rejectFailure = reject;
  });
  // Only ever raced against pdf.js; a failure after the race is over must not go unhandled.
  failure.catch(() => undefined);
  const transport = fileTransport(pdfjs, handle, size, budget, (err) => rejectFailure(err));
  const onAbort = () => rejectFailure(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const task = pdfjs.getDocument({
    range: transport,
    rangeChunkSize: CHUNK_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    enableXfa: false,
    stopAtErrors: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    const doc = await Promise.race([task.promise, failure]);
    const pages = doc.numPages;
    if (pages < 1) return { ok: false, bytesRead: transport.bytesRead, unreadable: { cause: `${WHAT}: it has no pages`, fix: FIX_DOCUMENT } };
    // Reaching the first and the last page proves the page tree is there, not only its count.
    await Promise.race([doc.getPage(1), failure]);
    if (pages > 1) await Promise.race([doc.getPage(pages), failure]);
    const einvoice = await Promise.race([pdfEInvoice(doc), failure]);
    if (einvoice.kind === 'broken') {
      return {
        ok: false,
        bytesRead: transport.bytesRead,
        unreadable: {
          damage: 'einvoice_broken',
          cause: `carries the e-invoice ${einvoice.name}, whose XML is broken (${einvoice.cause})`,
          fix: `${FIX_EINVOICE.replace(/, or leave it out\.$/, '')}; to have its printed pages read by OCR instead, print it to a new PDF (which leaves the attachment out) and add that, or leave it out.`,
        },
      };
    }
    return { ok: true, pages, einvoice: einvoice.kind === 'einvoice' ? einvoice : null, bytesRead: transport.bytesRead };
  } catch (err) {
    opts.signal?.throwIfAborted();
    if (err instanceof FileShrank) {
      return {
        ok: false,
        bytesRead: transport.bytesRead,
        unreadable: { damage: 'changed', cause: 'changed while it was being read', fix: 'Wait until it has finished copying, then add it again.' },
      };
    }
    const unreadable = fromPdfjsError(err, size, budget);
    if (unreadable === null) throw err;
    return { ok: false, unreadable, bytesRead: transport.bytesRead };
  } finally {
    transport.stopped = true;
    opts.signal?.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => undefined);
  }
}
