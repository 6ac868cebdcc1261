// Shapes produced by the importers: validated batch items plus the problems found on the way.
// Runs in the engine (plain Node); no electron, no DOM.
import type { MessageChannelKind } from '../messaging/recipient';
import type { ProblemCode } from '../../../shared/problem-codes';

/** One thing the user has to look at: names the file (and CSV row), the cause and what to do. */
export interface ImportProblem {
  /** Absolute path of the file concerned, or of the CSV. */
  source: string;
  /** Spreadsheet row in the CSV (header = 1, first data row = 2); null for whole-file problems. */
  row: number | null;
  message: string;
  /** The cause as a code with its values (the message is its English); absent for causes not coded yet. */
  code: ProblemCode;
}

/** A file ready to become a transcription or OCR job. */
export interface FileItem {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  mime: string;
  /** Audio seconds (transcribe) or pages (ocr; an image counts 1). */
  units: number;
  /** False when units are an estimate (compressed audio, PDF without visible page objects, TIFF). */
  unitsExact: boolean;
  /** An e-invoice (its XML, or a PDF carrying one), read on this computer: units are 0. */
  einvoice?: 'xml' | 'pdf';
  /** The folders between the dropped folder and the file ('/'-separated), set by the planner; absent at its top. */
  folder?: string;
}

/** One outbound message ready to become a channel job. */
export interface MessageRow {
  row: number;
  /** E.164 for messaging and voice, lower-cased address for email. */
  to: string;
  /** Text with every {{placeholder}} filled. */
  text: string;
  subject: string | null;
  /** The extra columns of this row (not to/text/subject), keyed by header name as written. */
  fields: Record<string, string>;
  /** The row's opt-out cell (opt-out-list.ts), present only when the file has an opt-out column. */
  optOut?: { name: string; value: string };
}

export type FileCapability = 'transcribe' | 'ocr';
export type { MessageChannelKind };
