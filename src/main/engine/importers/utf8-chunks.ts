// Streams a text file as decoded UTF-8 chunks, control characters dropped (tabs and line ends
// kept): they would reach a terminal, an export or a customer. The decoder is strict: a file saved in a legacy
// code page would otherwise turn "Müller" into "M�ller" in messages sent to real customers.
import { createReadStream } from 'node:fs';
import { dropControls } from '../../../shared/control-characters';
import { TimeSlice } from '../time-slice';

export class TextEncodingError extends Error {
  constructor(message: string) {
    super(message);
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
          throw new TextEncodingError(
            `${path} is saved as UTF-16 ("Unicode text"), not UTF-8. Save it again as "CSV UTF-8 (comma delimited)" and import that file.`,
          );
        }
      }
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw new TextEncodingError(notUtf8(path, offset));
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
      throw new TextEncodingError(notUtf8(path, offset));
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

function notUtf8(path: string, nearByte: number): string {
  return `${path} is not valid UTF-8 text (first bad byte after byte ${nearByte}); accented letters would be garbled in the messages. Save it again as "CSV UTF-8" and import that file.`;
}
