// "Files out": which capabilities have a file of their own per succeeded item. An answer saved as
// a file (speech, images) is written as received; a result that offers text (transcripts, OCR
// text, text results) becomes a .txt. Channel sends, embeddings and CRM writes have nothing per
// item to write as a file: their results are rows of a CSV or JSON export. Read from the
// descriptors (`outputs`, and `yields`: the result offers text), so a new capability needs no entry here.
import type { Capability } from '../domain';
import { describe } from './catalog';

export type ItemFileKind = 'saved' | 'text';

export function itemFileKind(capability: Capability): ItemFileKind | null {
  const d = describe(capability);
  if (d.outputs !== null) return 'saved';
  return d.yields !== null ? 'text' : null;
}

/** Why a capability's results cannot be written as files, and what to use instead. */
export function noItemFilesMessage(capability: Capability): string {
  const d = describe(capability);
  return `${d.short} results have no file per item (${capability} batches keep only what the API answered). Export them as a table instead: \`batchdesk export <batch-id> --format csv\` (or json), or Export in the window.`;
}
