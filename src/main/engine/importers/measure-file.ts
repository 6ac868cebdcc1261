// Reads one file exactly once, as a stream: SHA-256, format sniffing on the first 64 KiB and the
// structure check of its format (with the billable units it yields) all come from the same pass,
// so a 1 GB recording costs one sequential read and little memory. PDF and TIFF keep their index
// where they like (often at the end), so they are checked afterwards by a few positioned reads.
// Whatever goes wrong with one file becomes that file's problem; only an abort propagates.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { HEAD_BYTES, sniffMedia, type MediaType } from '../../../shared/media';
import { describeIoError, describeReadFailure, rethrowAbort } from './io-problem';
import { acceptedKind, unsupportedMessage } from './accepted-media';
import { unreadableMessage, type Checked, type StreamCheck } from './format-check';
import { PngCheck } from './validate-png';
import { JpegCheck } from './validate-jpeg';
import { WavCheck } from './validate-wav';
import { AudioDurationCheck } from './validate-audio';
import { readTiffPages } from './validate-tiff';
import { readPdfPages } from './validate-pdf';
import type { FileCapability, FileItem, ImportProblem } from './types';

export type Measured = { ok: true; item: FileItem } | { ok: false; problem: ImportProblem };

function fail(path: string, message: string): Measured {
  return { ok: false, problem: { source: path, row: null, message } };
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
    case 'application/pdf':
    case 'image/tiff':
      return null;
    default:
      return type.kind === 'audio' ? new AudioDurationCheck(type, size) : null;
  }
}

/** The check by positioned reads, after the pass, for PDF and TIFF. */
async function checkByReads(type: MediaType, handle: FileHandle, size: number, signal?: AbortSignal): Promise<Checked | null> {
  if (type.mime === 'application/pdf') {
    const pdf = await readPdfPages(handle, size, signal ? { signal } : {});
    return pdf.ok ? { ok: true, units: pdf.pages, exact: true } : { ok: false, unreadable: pdf.unreadable };
  }
  if (type.mime === 'image/tiff') {
    return readTiffPages(async (position, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    }, size);
  }
  return null;
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
  try {
    return await measureOpen(path, handle, capability, signal);
  } catch (err) {
    // Any failure at all (I/O, a parser's RangeError, a bug in a check) is this file's problem.
    rethrowAbort(err, signal);
    return fail(path, describeReadFailure(path, err));
  } finally {
    await handle.close().catch(() => undefined);
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

async function measureOpen(path: string, handle: FileHandle, capability: FileCapability, signal?: AbortSignal): Promise<Measured> {
  const st = await handle.stat();
  if (!st.isFile()) {
    return fail(path, `${path} is not a regular file (it is a folder, device or pipe), so it cannot be read as a recording or document. Choose the files themselves.`);
  }
  const size = st.size;
  if (size === 0) {
    return fail(path, `${path} is empty (0 bytes), so there is nothing to send. Check that it was saved or copied completely, or leave it out.`);
  }

  const pass = new Pass(path, capability, size);
  let streamed: PassResult | string;
  try {
    for await (const data of sequentialChunks(handle, size)) {
      signal?.throwIfAborted();
      const refused = await pass.push(data);
      // Stop reading a refused file: no point hashing a gigabyte we will not send.
      if (refused !== null) return fail(path, refused);
    }
    streamed = await pass.end();
  } finally {
    pass.dispose();
  }
  if (typeof streamed === 'string') return fail(path, streamed);
  if (streamed.bytesRead !== size) {
    return fail(path, `${path} changed while it was being read (${size} bytes expected, ${streamed.bytesRead} read). Wait until it has finished copying or recording, then add it again.`);
  }
  const checked = streamed.checked ?? (await checkByReads(streamed.type, handle, size, signal));
  if (checked === null) throw new Error(`no structure check for ${streamed.type.mime}`);
  if (!checked.ok) return fail(path, unreadableMessage(path, checked.unreadable));
  return {
    ok: true,
    item: { path, size, mtimeMs: st.mtimeMs, sha256: streamed.sha256, mime: streamed.type.mime, units: checked.units, unitsExact: checked.exact },
  };
}

interface PassResult {
  type: MediaType;
  sha256: string;
  bytesRead: number;
  /** The streaming check's verdict, or null when the format is checked by positioned reads. */
  checked: Checked | null;
}

/** State of the single streaming pass over one file. */
class Pass {
  private readonly hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;
  private sniffed = false;
  private type: MediaType | null = null;
  private check: StreamCheck | null = null;
  private bytesRead = 0;

  constructor(
    private readonly path: string,
    private readonly capability: FileCapability,
    private readonly size: number,
  ) {}

  /** Feeds one chunk; returns a refusal message as soon as the format is known to be wrong. */
  async push(chunk: Buffer): Promise<string | null> {
    this.bytesRead += chunk.length;
    this.hash.update(chunk);
    if (this.sniffed) {
      await this.check?.push(chunk);
      return null;
    }
    this.headChunks.push(chunk);
    this.headLength += chunk.length;
    return this.headLength >= HEAD_BYTES ? this.sniff() : null;
  }

  /** Decides the format from the first 64 KiB (or the whole file when smaller), then replays them to its check. */
  private async sniff(): Promise<string | null> {
    this.sniffed = true;
    const head = Buffer.concat(this.headChunks).subarray(0, HEAD_BYTES);
    this.type = sniffMedia(head, basename(this.path));
    if (this.type === null || this.type.kind !== acceptedKind(this.capability)) {
      return unsupportedMessage(this.path, this.capability, this.type);
    }
    this.check = streamCheckFor(this.type, this.size);
    const chunks = this.headChunks;
    this.headChunks = [];
    for (const c of chunks) await this.check?.push(c);
    return null;
  }

  async end(): Promise<PassResult | string> {
    if (!this.sniffed) {
      const refused = await this.sniff();
      if (refused !== null) return refused;
    }
    if (this.type === null) return unsupportedMessage(this.path, this.capability, null);
    return {
      type: this.type,
      sha256: this.hash.digest('hex'),
      bytesRead: this.bytesRead,
      checked: this.check ? await this.check.finish(this.bytesRead) : null,
    };
  }

  dispose(): void {
    this.check?.dispose();
  }
}
