// "Files out": which capabilities have a file of their own per succeeded item. An answer saved as
// a file (speech, images) is written as received; a result that offers text (transcripts, OCR
// text, text results) becomes a .txt, and a timed one (transcripts) also an .srt, a .vtt and a
// .json of the whole result. Channel sends, embeddings and CRM writes have nothing per item to
// write as a file: their results are rows of a CSV or JSON export. Read from the descriptors
// (`outputs`, `yields`: the result offers text, `cues`: it is timed), so a new capability needs
// no entry here.
import type { Capability } from '../domain';
import { CAPABILITY_DESCRIPTORS, describe } from './catalog';

export type ItemFileKind = 'saved' | 'text';

/** `files`: every file an item has; `srt`, `vtt`: only its subtitle file (timed results). */
export type FilesFormat = 'files' | 'srt' | 'vtt';
export const FILES_FORMATS: readonly FilesFormat[] = ['files', 'srt', 'vtt'];

export function itemFileKind(capability: Capability): ItemFileKind | null {
  const d = describe(capability);
  if (d.outputs !== null) return 'saved';
  return d.yields !== null ? 'text' : null;
}

/** The capability's results are timed against their source (transcripts): they have cue files. */
export function hasCues(capability: Capability): boolean {
  return describe(capability).cues !== undefined;
}

/**
 * The extensions of the text files an item becomes, in the order they are written (all under one
 * name: call-001.txt, call-001.srt, ...); [] for answers saved as files, which keep their own.
 */
export function textFileExtensions(capability: Capability, format: FilesFormat): string[] {
  if (format !== 'files') return [format];
  if (itemFileKind(capability) !== 'text') return [];
  return hasCues(capability) ? ['txt', 'srt', 'vtt', 'json'] : ['txt'];
}

/** Why a capability's results cannot be written as files, and what to use instead. */
export function noItemFilesMessage(capability: Capability): string {
  const d = describe(capability);
  return `${d.short} results have no file per item (${capability} batches keep only what the API answered). Export them as a table instead: \`batchdesk export <batch-id> --format csv\` (or json), or Export in the window.`;
}

/** Why a capability's results have no subtitle files, and what to use instead. */
export function noCuesMessage(capability: Capability, format: 'srt' | 'vtt'): string {
  const d = describe(capability);
  const instead =
    itemFileKind(capability) !== null
      ? `\`batchdesk export <batch-id> --format files\` (each item's own file) or \`--format csv\` (or json)`
      : `\`batchdesk export <batch-id> --format csv\` (or json)`;
  const timed = Object.values(CAPABILITY_DESCRIPTORS)
    .filter((c) => c.cues !== undefined)
    .map((c) => c.name)
    .join(' and ');
  return `--format ${format} writes subtitles of timed transcripts, which only ${timed} batches have; this is a ${capability} batch (${d.short.toLowerCase()}), whose results are not timed. Use ${instead} instead.`;
}
