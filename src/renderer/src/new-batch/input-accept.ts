// What the file picker offers for a capability, from its descriptor's input kind.
import type { InputSpec } from '../../../shared/capabilities/descriptor';
import { assertNever } from '../../../shared/domain';
import { AUDIO_EXTENSIONS, DOCUMENT_EXTENSIONS } from '../../../shared/media';

export function acceptFor(input: InputSpec): string {
  switch (input.kind) {
    case 'files':
      return input.media === 'audio'
        ? ['audio/*', ...AUDIO_EXTENSIONS.map((e) => `.${e}`)].join(',')
        : ['application/pdf,image/png,image/jpeg,image/tiff', ...DOCUMENT_EXTENSIONS.map((e) => `.${e}`)].join(',');
    case 'messages':
      return '.csv,.tsv,.txt,text/csv,text/tab-separated-values';
    case 'rows':
      return input.column === null ? '.csv,.tsv,text/csv,text/tab-separated-values' : '.csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values';
    default:
      return assertNever(input, 'input kind');
  }
}

/** Files are chosen one by one; a folder only makes sense for recordings and scans. */
export function takesFolders(input: InputSpec): boolean {
  return input.kind === 'files';
}
