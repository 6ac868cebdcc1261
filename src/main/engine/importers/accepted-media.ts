// Which sniffed media a capability takes, and how to say so when a file does not fit.
import { AUDIO_EXTENSIONS, DOCUMENT_EXTENSIONS, type MediaKind, type MediaType } from '../../../shared/media';
import type { FileCapability } from './types';
import type { ProblemCode } from '../../../shared/problem-codes';

export function acceptedKind(capability: FileCapability): MediaKind {
  return capability === 'transcribe' ? 'audio' : 'document';
}

/** The problem of a file whose content is not what the capability accepts (its English: shared/problem-english.ts). */
export function unsupportedProblem(capability: FileCapability, found: MediaType | null): Extract<ProblemCode, { code: 'file_unsupported' }> {
  const accepted = (capability === 'transcribe' ? AUDIO_EXTENSIONS : DOCUMENT_EXTENSIONS).join(', ');
  const kind =
    found === null ? 'none' : found.kind === 'audio' ? 'audio' : found.mime === 'application/pdf' ? 'pdf' : found.mime === 'application/xml' ? 'xml' : 'image';
  return { code: 'file_unsupported', capability, found: kind, ext: found?.ext ?? null, accepted };
}
