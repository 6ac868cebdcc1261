// Reads one file exactly once, as a stream: SHA-256, format sniffing on the first 64 KiB and the
// structure check of its format (with the billable units it yields) all come from the same pass,
// so a 1 GB recording costs one sequential read and little memory. PDF and TIFF keep their index
// where they like (often at the end), so they are checked afterwards by a few positioned reads.
// Whatever goes wrong with one file becomes that file's problem; only an abort propagates.
// A small file already read whole (by the import's reader thread, read-whole.ts) goes through the
// very same pass from memory, so both ways give the same item or the same problem.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { basename } from 'node:path';
import { HEAD_BYTES, sniffMedia, type MediaType } from '../../../shared/media';
import { ioProblem, readFailure, rethrowAbort } from './io-problem';
import { acceptedKind, unsupportedProblem } from './accepted-media';
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import type { Checked, StreamCheck } from './format-check';
import { PngCheck } from './validate-png';
import { JpegCheck } from './validate-jpeg';
import { WavCheck } from './validate-wav';
import { AudioDurationCheck } from './validate-audio';
import { readTiffPages } from './validate-tiff';
import { readPdfPages, type PositionedReads } from './validate-pdf';
import { XmlCheck } from './validate-xml';
import type { FileCapability, FileItem, ImportProblem } from './types';

export type Measured = { ok: true; item: FileItem } | { ok: false; problem: ImportProblem };

function fail(path: string, code: ProblemCode): Measured {
  return { ok: false, problem: codedProblem(path, null, code) };
}

/** The format a structure check is for, as the problem names it. */
function formatOf(type: MediaType): Extract<ProblemCode, { code: 'file_broken' }>['format'] {
  switch (type.mime) {
    case 'image/png':
      return 'png';
    case 'image/jpeg':
      return 'jpeg';
    case 'image/tiff':
      return 'tiff';
    case 'audio/wav':
      return 'wav';
    case 'application/pdf':
      return 'pdf';
    case 'application/xml':
      return 'xml';
    default:
      return type.kind === 'audio' ? 'audio' : 'other';
  }
}

/** The check that runs while streaming, for the formats that can be checked that way. */
function streamCheckFor(type: MediaType, size: number): StreamCheck | null {
  switch (type.mime) {
    case 'image/png':
      return new PngCheck();
    case 'image/jpeg':
      return new JpegCheck();
    case 'audio/wav':
      return new WavCheck();
    case 'application/xml':
      return new XmlCheck();
    case 'application/pdf':
    case 'image/tiff':
      return null;
    default:
      return type.kind === 'audio' ? new AudioDurationCheck(type, size) : null;
  }
}

/** The check by positioned reads, after the pass, for PDF and TIFF. */
async function checkByReads(type: MediaType, source: PositionedReads, size: number, signal?: AbortSignal): Promise<Checked | null> {
  if (type.mime === 'application/pdf') {
    const pdf = await readPdfPages(source, size, signal ? { signal } : {});
    if (!pdf.ok) return { ok: false, unreadable: pdf.unreadable };
    // A PDF carrying an e-invoice (ZUGFeRD/Factur-X) is read from its XML: nothing to pay for.
    return pdf.einvoice === null ? { ok: true, units: pdf.pages, exact: true } : { ok: true, units: 0, exact: true, einvoice: 'pdf' };
  }
  if (type.mime === 'image/tiff') {
    return readTiffPages(async (position, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await source.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    }, size);
  }
  return null;
}

/** What the pass reads a file through: an open handle, or the bytes of a file read whole. */
interface FileSource extends PositionedReads {
  /** The digest of every byte `chunks` yields, when already known (else the pass hashes them). */
  sha256?: string;
  stat(): Promise<{ isFile(): boolean; size: number; mtimeMs: number }>;
  /** The file from its first byte, in chunks of at most HEAD_BYTES. */
  chunks(size: number): AsyncIterable<Buffer> | Iterable<Buffer>;
}

function handleSource(handle: FileHandle): FileSource {
  return {
    stat: () => handle.stat(),
    chunks: (size) => sequentialChunks(handle, size),
    read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
  };
}

/** A small file read whole by one open, fstat, read and close (read-whole.ts). */
export interface WholeFile {
  size: number;
  mtimeMs: number;
  /** Every byte read, up to one past `size` (which tells that the file grew while it was read). */
  data: Buffer;
  /** SHA-256 (hex) of `data`, computed where it was read. */
  sha256: string;
}

function memorySource(whole: WholeFile): FileSource {
  const { data } = whole;
  return {
    sha256: whole.sha256,
    stat: () => Promise.resolve({ isFile: () => true, size: whole.size, mtimeMs: whole.mtimeMs }),
    *chunks() {
      for (let at = 0; at < data.length; at += HEAD_BYTES) yield data.subarray(at, at + HEAD_BYTES);
    },
    read: (buffer, offset, length, position) => {
      const part = position >= data.length ? data.subarray(0, 0) : data.subarray(position, Math.min(data.length, position + length));
      buffer.set(part, offset);
      return Promise.resolve({ bytesRead: part.length });
    },
  };
}

export async function measureFile(path: string, capability: FileCapability, signal?: AbortSignal): Promise<Measured> {
  signal?.throwIfAborted();
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    rethrowAbort(err, signal);
    return fail(path, ioProblem(err, 'file'));
  }
  try {
    return await measureOpen(path, handleSource(handle), capability, signal);
  } catch (err) {
    // Any failure at all (I/O, a parser's RangeError, a bug in a check) is this file's problem.
    rethrowAbort(err, signal);
    return fail(path, readFailure(err));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The same measurement for a file already read whole: only the reading differs. */
export async function measureWhole(path: string, whole: WholeFile, capability: FileCapability, signal?: AbortSignal): Promise<Measured> {
  signal?.throwIfAborted();
  try {
    return await measureOpen(path, memorySource(whole), capability, signal);
  } catch (err) {
    rethrowAbort(err, signal);
    return fail(path, readFailure(err));
  }
}

/**
 * The file from its first byte, in HEAD_BYTES chunks, by plain sequential reads on the handle
 * (which stays open afterwards for the positioned reads of PDF and TIFF). A fresh buffer per
 * chunk: the checks may still hold the previous one. Stops at the end of the file, even if it grew.
 */
async function* sequentialChunks(handle: FileHandle, size: number): AsyncGenerator<Buffer> {
  let position = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
    // Reading on past the size seen by stat lets "changed while it was being read" catch growth.
    if (position > size + HEAD_BYTES) return;
  }
}

/** What is refused from the file's status alone, before a byte is read. */
function refusedByStat(path: string, st: { isFile(): boolean; size: number }): Measured | null {
  if (!st.isFile()) {
    return fail(path, { code: 'not_regular', expect: 'media' });
  }
  if (st.size === 0) {
    return fail(path, { code: 'file_empty' });
  }
  return null;
}

function changedWhileRead(path: string, size: number, bytesRead: number): Measured {
  return fail(path, { code: 'file_changed', expected: size, read: bytesRead });
}

/** The item, or the check's refusal, once the pass and the check are over. */
function concluded(path: string, st: { size: number; mtimeMs: number }, streamed: PassResult, checked: Checked | null): Measured {
  if (checked === null) throw new Error(`no structure check for ${streamed.type.mime}`);
  if (!checked.ok) {
    const u = checked.unreadable;
    return fail(path, { code: 'file_broken', format: formatOf(streamed.type), damage: u.damage ?? 'damaged', cause: u.cause, fix: u.fix });
  }
  return {
    ok: true,
    item: {
      path,
      size: st.size,
      mtimeMs: st.mtimeMs,
      sha256: streamed.sha256,
      mime: streamed.type.mime,
      units: checked.units,
      unitsExact: checked.exact,
      ...(checked.einvoice ? { einvoice: checked.einvoice } : {}),
    },
  };
}

async function measureOpen(path: string, source: FileSource, capability: FileCapability, signal?: AbortSignal): Promise<Measured> {
  const st = await source.stat();
  const early = refusedByStat(path, st);
  if (early) return early;
  const size = st.size;

  const pass = new Pass(path, capability, size, source.sha256);
  let streamed: PassResult | ProblemCode;
  try {
    for await (const data of source.chunks(size)) {
      signal?.throwIfAborted();
      const refused = await pass.push(data);
      // Stop reading a refused file: no point hashing a gigabyte we will not send.
      if (refused !== null) return fail(path, refused);
    }
    streamed = await pass.end();
  } finally {
    pass.dispose();
  }
  if ('code' in streamed) return fail(path, streamed);
  if (streamed.bytesRead !== size) return changedWhileRead(path, size, streamed.bytesRead);
  const checked = streamed.checked ?? (await checkByReads(streamed.type, source, size, signal));
  return concluded(path, st, streamed, checked);
}

/**
 * measureWhole without a single wait, for the formats whose check works synchronously (WAV, PNG,
 * JPEG: what a big folder mostly holds), or null for the others (then measureWhole). The same
 * pass and the same decisions as measureOpen, minus the promises: a 100,000-file folder spent a
 * fifth of its main-thread time on them.
 */
export function measureWholeNow(path: string, whole: WholeFile, capability: FileCapability): Measured | null {
  const st = { isFile: isAFile, size: whole.size, mtimeMs: whole.mtimeMs };
  const early = refusedByStat(path, st);
  if (early) return early;
  const pass = new Pass(path, capability, whole.size, whole.sha256, true);
  try {
    let streamed: PassResult | ProblemCode;
    try {
      const { data } = whole;
      for (let at = 0; at < data.length; at += HEAD_BYTES) {
        // A file of one chunk (most) is pushed as it is, without a view of itself.
        const refused = pass.push(data.length <= HEAD_BYTES ? data : data.subarray(at, at + HEAD_BYTES));
        if (isPending(refused) || pass.deferred) return null;
        if (refused !== null) return fail(path, refused);
      }
      const ended = pass.end();
      if (isPending(ended) || pass.deferred) return null;
      streamed = ended;
    } finally {
      pass.dispose();
    }
    if ('code' in streamed) return fail(path, streamed);
    if (streamed.bytesRead !== whole.size) return changedWhileRead(path, whole.size, streamed.bytesRead);
    if (streamed.checked === null) return null;
    return concluded(path, st, streamed, streamed.checked);
  } catch (err) {
    // As measureFile: any failure at all is this file's problem.
    return fail(path, readFailure(err));
  }
}

/** A file read whole was a regular file (the reader thread reads nothing else). */
function isAFile(): boolean {
  return true;
}

/** The checks that never wait (the others are left to the async pass). */
const SYNC_CHECKED = new Set(['image/png', 'image/jpeg', 'audio/wav', 'application/xml']);

function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof v === 'object' && v !== null && 'then' in v && typeof v.then === 'function';
}

/** A value still to come (then the synchronous pass gives up); never left to reject unhandled. */
function isPending<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  if (!isThenable(v)) return false;
  v.then(undefined, () => undefined);
  return true;
}

/** Runs `chunks` through the check in order, synchronously as long as the check is. */
function replay(check: StreamCheck | null, chunks: readonly Buffer[], from = 0): null | Promise<null> {
  for (let i = from; i < chunks.length; i++) {
    const pushed = check?.push(chunks[i] as Buffer);
    if (isThenable(pushed)) return Promise.resolve(pushed).then(() => replay(check, chunks, i + 1));
  }
  return null;
}

interface PassResult {
  type: MediaType;
  sha256: string;
  bytesRead: number;
  /** The streaming check's verdict, or null when the format is checked by positioned reads. */
  checked: Checked | null;
}

/**
 * State of the single streaming pass over one file. Its steps return plain values while the
 * format's check works synchronously, promises once it does not (compressed audio).
 */
class Pass {
  private readonly hash: Hash | null;
  private headChunks: Buffer[] = [];
  private headLength = 0;
  private sniffed = false;
  private type: MediaType | null = null;
  private check: StreamCheck | null = null;
  private bytesRead = 0;
  /** Set (only when syncOnly) when the format's check would wait: the caller takes the async pass. */
  deferred = false;

  constructor(
    private readonly path: string,
    private readonly capability: FileCapability,
    private readonly size: number,
    private readonly digest?: string,
    private readonly syncOnly = false,
  ) {
    this.hash = digest === undefined ? createHash('sha256') : null;
  }

  private refuseType(found: MediaType | null): ProblemCode {
    return unsupportedProblem(this.capability, found);
  }

  /** Feeds one chunk; returns a refusal's code as soon as the format is known to be wrong. */
  push(chunk: Buffer): ProblemCode | null | Promise<ProblemCode | null> {
    this.bytesRead += chunk.length;
    this.hash?.update(chunk);
    if (this.sniffed) {
      const pushed = this.check?.push(chunk);
      return isThenable(pushed) ? Promise.resolve(pushed).then(() => null) : null;
    }
    this.headChunks.push(chunk);
    this.headLength += chunk.length;
    return this.headLength >= HEAD_BYTES ? this.sniff() : null;
  }

  /** Decides the format from the first 64 KiB (or the whole file when smaller), then replays them to its check. */
  private sniff(): ProblemCode | null | Promise<ProblemCode | null> {
    this.sniffed = true;
    const joined = this.headChunks.length === 1 ? (this.headChunks[0] as Buffer) : Buffer.concat(this.headChunks);
    const head = joined.length <= HEAD_BYTES ? joined : joined.subarray(0, HEAD_BYTES);
    this.type = sniffMedia(head, basename(this.path));
    if (this.type === null || this.type.kind !== acceptedKind(this.capability)) return this.refuseType(this.type);
    const chunks = this.headChunks;
    this.headChunks = [];
    if (this.syncOnly && !SYNC_CHECKED.has(this.type.mime)) {
      this.deferred = true;
      return null;
    }
    this.check = streamCheckFor(this.type, this.size);
    return replay(this.check, chunks);
  }

  end(): PassResult | ProblemCode | Promise<PassResult | ProblemCode> {
    if (!this.sniffed) {
      const refused = this.sniff();
      if (isThenable(refused)) return refused.then((r) => r ?? this.result());
      if (refused !== null) return refused;
    }
    return this.result();
  }

  private result(): PassResult | ProblemCode | Promise<PassResult | ProblemCode> {
    if (this.type === null) return this.refuseType(null);
    const type = this.type;
    const sha256 = this.digest ?? this.hash?.digest('hex') ?? '';
    const bytesRead = this.bytesRead;
    if (this.check === null) return { type, sha256, bytesRead, checked: null };
    const checked = this.check.finish(bytesRead);
    return isThenable(checked) ? Promise.resolve(checked).then((c) => ({ type, sha256, bytesRead, checked: c })) : { type, sha256, bytesRead, checked };
  }

  dispose(): void {
    this.check?.dispose();
  }
}
