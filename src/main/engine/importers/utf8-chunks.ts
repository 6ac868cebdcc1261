// Streams a text file as decoded UTF-8 chunks, control characters dropped (tabs and line ends
// kept): they would reach a terminal, an export or a customer. The decoder is strict: a file saved in a legacy
// code page would otherwise turn "Müller" into "M�ller" in messages sent to real customers.
import { createReadStream } from 'node:fs';
import { dropControls } from '../../../shared/control-characters';
import { TimeSlice } from '../time-slice';
import type { ProblemCode } from '../../../shared/problem-codes';
import { problemEnglish } from '../../../shared/problem-english';

/** A file that is not UTF-8 text: its problem's code, and its English as the message. */
export class TextEncodingError extends Error {
  readonly code: Extract<ProblemCode, { code: 'not_utf8' }>;
  constructor(path: string, utf16: boolean, byte: number) {
    const code = { code: 'not_utf8' as const, utf16, byte };
    super(problemEnglish(path, null, code));
    this.code = code;
    this.name = 'TextEncodingError';
  }
}

const CHUNK_BYTES = 256 * 1024;
/** Text handed on at most this long at a time (cut after a line), so that rows are parsed in slices. */
const PIECE_CHARS = 4 * 1024;

/**
 * Yields decoded text; a leading UTF-8 BOM is dropped. Throws TextEncodingError for non-UTF-8 input.
 * `pace`, asked after each block is consumed, holds the next read while whoever takes the rows is
 * behind (the import's writing thread, queue/job-chunk-thread.ts): memory stays bounded.
 */
export async function* utf8Chunks(path: string, signal?: AbortSignal, pace?: () => Promise<void> | null): AsyncGenerator<string> {
  // ignoreBOM: false (the default) makes the decoder strip a leading BOM itself.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let first = true;
  let offset = 0;
  const slice = new TimeSlice();
  try {
    for await (const data of stream) {
      signal?.throwIfAborted();
      const bytes = data as Buffer;
      if (first) {
        first = false;
        if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
          throw new TextEncodingError(path, true, 0);
        }
      }
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw new TextEncodingError(path, false, offset);
      }
      // The one door for an imported file's text (CSV cells, TXT lines, opt-out lists).
      yield* pieces(dropControls(text), slice);
      offset += bytes.length;
      const wait = pace?.();
      if (wait) await wait;
    }
    try {
      const rest = decoder.decode();
      if (rest !== '') yield dropControls(rest);
    } catch {
      throw new TextEncodingError(path, false, offset);
    }
  } finally {
    stream.destroy();
  }
}

/**
 * A block's text in pieces cut after a line break (never inside a character), pausing between
 * them once a slice of time is used: a block is thousands of rows, parsed as they are handed on.
 */
async function* pieces(text: string, slice: TimeSlice): AsyncGenerator<string> {
  let at = 0;
  while (text.length - at > PIECE_CHARS) {
    const cut = text.indexOf('\n', at + PIECE_CHARS);
    if (cut === -1) break;
    yield text.slice(at, cut + 1);
    at = cut + 1;
    const pause = slice.due();
    if (pause) await pause;
  }
  if (at < text.length) yield at === 0 ? text : text.slice(at);
}
