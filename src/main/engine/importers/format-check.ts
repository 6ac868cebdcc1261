// What a format check says about one file: its billable units, or why it cannot be processed.
// A refusal is worded to follow the file's path ("<path> <cause>. <fix>"), so every problem
// names the file, what is wrong with it and what to do.
import type { FileDamage } from '../../../shared/problem-codes';

export interface Unreadable {
  /** Completes "<path> ...", e.g. "is not a readable PNG image: it is cut short ...". */
  cause: string;
  /** What the user can do about it. */
  fix: string;
  /** The kind of refusal the window says (its words name no format's parts); absent: damaged. */
  damage?: FileDamage;
}

/** Where an e-invoice's XML is: the file itself, or an attachment of a PDF (ZUGFeRD/Factur-X). */
export type EInvoiceIn = 'xml' | 'pdf';

/** `einvoice`: the file is an e-invoice, read on this computer (0 units, never sent). */
export type Checked = { ok: true; units: number; exact: boolean; einvoice?: EInvoiceIn } | { ok: false; unreadable: Unreadable };

/** A check fed by the single streaming pass over the file (the same chunks as the hash). */
export interface StreamCheck {
  push(chunk: Buffer): void | Promise<void>;
  /** Called once every byte was pushed; `size` is the file's size. */
  finish(size: number): Checked | Promise<Checked>;
  /** Releases what the check holds; safe to call at any time, more than once. */
  dispose(): void;
}

export const FIX_DOCUMENT = 'Save, scan or copy it again (a copy or download may have been interrupted), or leave it out.';
export const FIX_RECORDING = 'Record, export or copy it again (a recording, copy or download may have been interrupted), or leave it out.';

export function refused(cause: string, fix: string, damage: FileDamage = 'damaged'): Checked {
  return { ok: false, unreadable: { cause, fix, damage } };
}
