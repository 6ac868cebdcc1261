// Which sniffed media a capability takes, and how to say so when a file does not fit.
import { AUDIO_EXTENSIONS, DOCUMENT_EXTENSIONS, type MediaKind, type MediaType } from '../../../shared/media';
import type { FileCapability } from './types';

export function acceptedKind(capability: FileCapability): MediaKind {
  return capability === 'transcribe' ? 'audio' : 'document';
}

function describeType(t: MediaType): string {
  if (t.kind === 'audio') return `an audio file (${t.ext})`;
  return t.mime === 'application/pdf' ? 'a PDF document' : t.mime === 'application/xml' ? 'an XML file (an e-invoice?)' : `an image (${t.ext})`;
}

/** The problem message for a file whose content is not what the capability accepts. */
export function unsupportedMessage(path: string, capability: FileCapability, found: MediaType | null): string {
  const list = (capability === 'transcribe' ? AUDIO_EXTENSIONS : DOCUMENT_EXTENSIONS).join(', ');
  const what = capability === 'transcribe' ? 'Transcription accepts audio' : 'OCR accepts documents and scans';
  if (found === null) {
    const fix = capability === 'transcribe' ? 'Convert the recording to one of these formats' : 'Save or scan it as PDF, PNG, JPEG or TIFF';
    return `${path} is not in a supported format: its content is none of ${list}. ${fix}, or leave it out.`;
  }
  const other = capability === 'transcribe' ? 'Start an OCR batch for documents' : 'Start a transcription batch for recordings';
  return `${path} is ${describeType(found)}, but ${what} only (${list}). ${other}, or leave this file out.`;
}
