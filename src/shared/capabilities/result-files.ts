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

/** `files`: every file an item has; `srt`, `vtt`: only its subtitle file (timed results); `ubl`: only its UBL 2.1 invoice (invoices). */
export type FilesFormat = 'files' | 'srt' | 'vtt' | 'ubl';
export const FILES_FORMATS: readonly FilesFormat[] = ['files', 'srt', 'vtt', 'ubl'];

export function itemFileKind(capability: Capability): ItemFileKind | null {
  const d = describe(capability);
  if (d.outputs !== null) return 'saved';
  return d.yields !== null ? 'text' : null;
}

/** The capability's results are timed against their source (transcripts): they have cue files. */
export function hasCues(capability: Capability): boolean {
  return describe(capability).cues !== undefined;
}

/** The capability's results are invoices (OCR): they have a UBL file. */
export function hasInvoices(capability: Capability): boolean {
  return describe(capability).invoice !== undefined;
}

/**
 * The extensions of the text files an item becomes, in the order they are written (all under one
 * name: call-001.txt, call-001.srt, ...); [] for answers saved as files, which keep their own.
 * `xml` is an invoice's UBL 2.1.
 */
export function textFileExtensions(capability: Capability, format: FilesFormat): string[] {
  if (format === 'ubl') return ['xml'];
  if (format !== 'files') return [format];
  if (itemFileKind(capability) !== 'text') return [];
  if (hasCues(capability)) return ['txt', 'srt', 'vtt', 'json'];
  return hasInvoices(capability) ? ['txt', 'json', 'xml'] : ['txt'];
}

/** "a transcribe batch (transcription)", "an ocr batch": what kind of batch a message speaks of. */
export function kindOfBatch(capability: Capability): string {
  const short = describe(capability).short.toLowerCase();
  return `${/^[aeiou]/.test(capability) ? 'an' : 'a'} ${capability} batch${short === capability ? '' : ` (${short})`}`;
}

/** The export that works for every batch, as a command to copy (a file named for the batch: export never overwrites one). */
function tableExport(batchId: string): string {
  return `\`batchdesk export ${batchId} --format csv --out ${batchId}.csv\` (or --format json)`;
}

/** Why a capability's results have no UBL invoices, and what to use instead. */
export function noInvoicesMessage(capability: Capability, batchId: string): string {
  return `--format ubl writes the invoices OCR reads, one UBL 2.1 XML file each; this is ${kindOfBatch(capability)}. Use ${tableExport(batchId)}${itemFileKind(capability) !== null ? ', or --format files' : ''} instead.`;
}

/** Why a capability's results cannot be written as files, and what to use instead. */
export function noItemFilesMessage(capability: Capability, batchId: string): string {
  return `${/^[aeiou]/.test(capability) ? 'An' : 'A'} ${capability} batch's results have no file per item (it keeps only what the API answered). Export them as a table instead: ${tableExport(batchId)}, or Export in the window.`;
}

/** Why a capability's results have no subtitle files, and what to use instead. */
export function noCuesMessage(capability: Capability, batchId: string, format: 'srt' | 'vtt'): string {
  const instead =
    itemFileKind(capability) !== null
      ? `\`batchdesk export ${batchId} --format files --out DIR\` (each item's own file) or ${tableExport(batchId)}`
      : tableExport(batchId);
  const timed = Object.values(CAPABILITY_DESCRIPTORS)
    .filter((c) => c.cues !== undefined)
    .map((c) => c.name)
    .join(' and ');
  return `--format ${format} writes subtitles of timed transcripts, which only ${timed} batches have; this is ${kindOfBatch(capability)}, whose results are not timed. Use ${instead} instead.`;
}
