// What a watched folder did with a file, in the window's language, from the engine's code
// (shared/watch-notes.ts). A file's import problem is said as New batch says it (problem-words.ts);
// words stored without a code are given back as null, and the caller shows them as stored (English).
import type { IncompleteWhy, WatchNote } from '../../../shared/watch-notes';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { problemCause } from '../new-batch/problem-words';
import { formatCount, formatDateTime } from '../format/time';

type Say = (key: string, values?: Record<string, unknown>) => string;

function sayer(lng?: string): Say {
  // Keys built from the closed code unions: test/unit/renderer/watch-note-words.test.ts says every code in both languages.
  return (key, values = {}) => i18n.t(`watch:note.${key}` as 'watch:note.resend', { ...values, ...(lng ? { lng } : {}) });
}

/** A file as the folder's screen names it: its path inside the watched folder. */
export function nameInFolder(path: string, dir: string): string {
  const sep = dir.endsWith('/') || dir.endsWith('\\') ? '' : path.charAt(dir.length);
  return path.startsWith(dir) && (sep === '/' || sep === '\\' || sep === '') && path.length > dir.length ? path.slice(dir.length + (sep === '' ? 0 : 1)) : path;
}

/** Why a file is not whole yet; null for a why this version has no code for (shown as stored). */
export function incompleteWhyWords(why: IncompleteWhy, lng?: string): string | null {
  const say = sayer(lng);
  switch (why.code) {
    case 'empty':
    case 'wav_header_placeholder':
    case 'wav_data_placeholder':
    case 'wav_data_missing':
    case 'pdf_no_eof':
    case 'png_no_iend':
    case 'jpeg_no_eoi':
      return say(`why.${why.code}`);
    case 'wav_header_short':
    case 'wav_data_short':
      return say(`why.${why.code}`, { need: formatCount(why.need), have: formatCount(why.have) });
    case 'open_for_writing':
      return say('why.open_for_writing', { program: why.program, pid: String(why.pid) });
    case 'words':
      return null;
    default:
      return assertNever(why, 'incomplete why');
  }
}

/** The note in one line naming the file (`name`: as the screen names it); null for words without a code. */
export function watchNoteLine(note: WatchNote, name: string, lng?: string): string | null {
  const say = sayer(lng);
  switch (note.code) {
    case 'same_as_taken': {
      const at = formatDateTime(note.at);
      const batch = note.batch ?? '?';
      return note.as === null ? say('sameAsTaken', { name, at, batch }) : say('sameAsTakenAs', { name, as: note.as, at, batch });
    }
    case 'same_as_batch':
      return say(note.done ? 'sameAsBatchDone' : 'sameAsBatchOpen', { name, source: note.source, batch: note.batch, batchName: note.name });
    case 'changed_after_sent':
      return say('changedAfterSent', { name, at: formatDateTime(note.at), batch: note.batch ?? '?', count: note.versions, n: formatCount(note.versions) });
    case 'not_resent':
      return say('resendRefused', { name, cause: note.cause === null ? note.words : problemCause(note.cause, lng) });
    case 'set_aside': {
      // A row stored before plan refusals had a code: its English stands in for the cause.
      const cause = note.cause === null ? note.words : problemCause(note.cause, lng);
      return note.target === null ? say('leftInPlace', { name, cause, error: note.error ?? '?' }) : say('setAside', { name, cause, target: note.target });
    }
    case 'incomplete': {
      const why = incompleteWhyWords(note.why, lng);
      if (why === null) return null;
      return note.why.code === 'open_for_writing' ? say('incompleteOpen', { name, why }) : say('incomplete', { name, why });
    }
    case 'words':
      return null;
    default:
      return assertNever(note, 'watch note');
  }
}
