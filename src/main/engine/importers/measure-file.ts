// Reads one file exactly once, as a stream: SHA-256, format sniffing on the first 64 KiB, and the
// billable units (audio seconds, PDF pages) all come from the same pass, so a 1 GB recording costs
// one sequential read and a few KiB of memory.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { HEAD_BYTES, PdfPageCounter, audioSeconds, sniffMedia, type MediaType } from '../../../shared/media';
import { describeIoError, rethrowAbort } from './io-problem';
import { acceptedKind, unsupportedMessage } from './accepted-media';
import type { FileCapability, FileItem, ImportProblem } from './types';

export type Measured = { ok: true; item: FileItem } | { ok: false; problem: ImportProblem };

function fail(path: string, message: string): Measured {
  return { ok: false, problem: { source: path, row: null, message } };
}

function unitsOf(type: MediaType, head: Uint8Array, size: number, pdfPages: number | null): { units: number; exact: boolean } {
  if (type.kind === 'audio') {
    const a = audioSeconds(head, size);
    return { units: a.seconds, exact: a.exact };
  }
  if (pdfPages !== null) {
    // Page objects hidden in compressed object streams are invisible to the counter: bill 1, mark estimate.
    return pdfPages > 0 ? { units: pdfPages, exact: true } : { units: 1, exact: false };
  }
  // A TIFF may hold several pages; PNG and JPEG hold exactly one.
  return { units: 1, exact: type.ext !== 'tif' && type.ext !== 'tiff' };
}

export async function measureFile(path: string, capability: FileCapability, signal?: AbortSignal): Promise<Measured> {
  signal?.throwIfAborted();
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    rethrowAbort(err, signal);
    return fail(path, describeIoError(path, err, 'file'));
  }
  // From here the stream owns the handle (autoClose) once created; close it ourselves before that.
  let size: number;
  let mtimeMs: number;
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      return fail(path, `${path} is not a regular file (it is a folder, device or pipe), so it cannot be read as a recording or document. Choose the files themselves.`);
    }
    size = st.size;
    mtimeMs = st.mtimeMs;
  } catch (err) {
    await handle.close().catch(() => undefined);
    rethrowAbort(err, signal);
    return fail(path, describeIoError(path, err, 'file'));
  }
  if (size === 0) {
    await handle.close();
    return fail(path, `${path} is empty (0 bytes), so there is nothing to send. Check that it was saved or copied completely, or leave it out.`);
  }

  const stream = createReadStream(path, { fd: handle, highWaterMark: HEAD_BYTES, autoClose: true });
  const pass = new Pass(path, capability);
  try {
    for await (const data of stream) {
      signal?.throwIfAborted();
      const refused = pass.push(data as Buffer);
      // Stop reading a refused file: no point hashing a gigabyte we will not send.
      if (refused !== null) return fail(path, refused);
    }
  } catch (err) {
    rethrowAbort(err, signal);
    return fail(path, describeIoError(path, err, 'file'));
  } finally {
    stream.destroy();
  }
  const result = pass.end();
  if (typeof result === 'string') return fail(path, result);
  if (result.bytesRead !== size) {
    return fail(path, `${path} changed while it was being read (${size} bytes expected, ${result.bytesRead} read). Wait until it has finished copying or recording, then add it again.`);
  }
  const { units, exact } = unitsOf(result.type, result.head, size, result.pdfPages);
  return { ok: true, item: { path, size, mtimeMs, sha256: result.sha256, mime: result.type.mime, units, unitsExact: exact } };
}

/** State of the single streaming pass over one file. */
class Pass {
  private readonly hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;
  private head: Buffer | null = null;
  private type: MediaType | null = null;
  private pdf: PdfPageCounter | null = null;
  private bytesRead = 0;

  constructor(
    private readonly path: string,
    private readonly capability: FileCapability,
  ) {}

  /** Feeds one chunk; returns a refusal message as soon as the format is known to be wrong. */
  push(chunk: Buffer): string | null {
    this.bytesRead += chunk.length;
    this.hash.update(chunk);
    if (this.head !== null) {
      this.pdf?.push(chunk);
      return null;
    }
    this.headChunks.push(chunk);
    this.headLength += chunk.length;
    return this.headLength >= HEAD_BYTES ? this.sniff() : null;
  }

  /** Decides the format from the first 64 KiB (or the whole file when smaller). */
  private sniff(): string | null {
    const head = Buffer.concat(this.headChunks).subarray(0, HEAD_BYTES);
    this.head = head;
    this.type = sniffMedia(head, basename(this.path));
    if (this.type === null || this.type.kind !== acceptedKind(this.capability)) {
      return unsupportedMessage(this.path, this.capability, this.type);
    }
    if (this.type.mime === 'application/pdf') {
      const pdf = new PdfPageCounter();
      for (const c of this.headChunks) pdf.push(c);
      this.pdf = pdf;
    }
    this.headChunks = [];
    return null;
  }

  end(): string | { type: MediaType; head: Buffer; sha256: string; bytesRead: number; pdfPages: number | null } {
    if (this.head === null) {
      const refused = this.sniff();
      if (refused !== null) return refused;
    }
    if (this.type === null || this.head === null) return unsupportedMessage(this.path, this.capability, null);
    return {
      type: this.type,
      head: this.head,
      sha256: this.hash.digest('hex'),
      bytesRead: this.bytesRead,
      pdfPages: this.pdf?.finish() ?? null,
    };
  }
}
