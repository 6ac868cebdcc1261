// A new batch's name when the user gives none: what they dropped and how many of what it holds,
// as they would say it: a dropped folder's or file's name ("Calls 26 Nov (300 recordings)",
// "messages.csv (200 messages)"); several files dropped: what they are and the day
// ("Invoices 30 Nov (6 scans, 3 e-invoices)"), not the first file's name and "8 more". The engine works out
// the parts (every face's create); the English name is made here, once, and the window says the
// same parts in its own language (renderer/src/new-batch/batch-name-words.ts).
import { z } from 'zod';
import type { BatchCapability } from '../domain';
import { channelKindOf } from '../channel-kind';
import { escapeControls } from '../control-characters';
import { assertNever } from '../domain';

/** The longest a dropped name is kept in a batch's name (a name is at most 200 characters). */
const MAX_WHAT = 120;

/** What one item is: the window's catalogue has each of these (a unit test checks). */
export const ITEM_NOUNS = ['recording', 'scan', 'einvoice', 'call', 'email', 'message', 'text', 'prompt', 'record'] as const;
export const ItemNoun = z.enum(ITEM_NOUNS);
export type ItemNoun = z.infer<typeof ItemNoun>;

/** A default name's parts: the window and the command line say them each in their language. */
export const BatchNameParts = z
  .object({
    /** The first dropped path's last name, made inert and bounded; null without a path. */
    what: z.string().nullable(),
    /** How many paths besides the first. */
    more: z.number().int().nonnegative(),
    /** Several paths dropped: the day the batch is made (YYYY-MM-DD, this computer's date), said with what the items are; `what` is then null. */
    day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .default(null),
    /** Counts by kind of item, in the order said; only kinds with at least one item (all of them zero: the first kind's). */
    counts: z.array(z.object({ noun: ItemNoun, n: z.number().int().nonnegative() })).min(1),
  })
  .strict();
export type BatchNameParts = z.infer<typeof BatchNameParts>;

/** What one item of the capability is. */
export function itemNounOf(capability: BatchCapability, channel: string | null): ItemNoun {
  switch (capability) {
    case 'transcribe':
      return 'recording';
    case 'ocr':
      return 'scan';
    case 'channel': {
      const kind = channelKindOf(channel ?? '');
      return kind === 'voice' ? 'call' : kind === 'email' ? 'email' : 'message';
    }
    case 'tts':
    case 'text':
    case 'embeddings':
      return 'text';
    case 'image':
      return 'prompt';
    case 'crm':
      return 'record';
    default:
      return assertNever(capability, 'capability');
  }
}

const ENGLISH_NOUNS: Record<ItemNoun, [string, string]> = {
  recording: ['recording', 'recordings'],
  scan: ['scan', 'scans'],
  einvoice: ['e-invoice', 'e-invoices'],
  call: ['call', 'calls'],
  email: ['e-mail', 'e-mails'],
  message: ['message', 'messages'],
  text: ['text', 'texts'],
  prompt: ['prompt', 'prompts'],
  record: ['record', 'records'],
};

const ENGLISH_GROUPS: Record<ItemNoun, string> = {
  recording: 'Recordings',
  scan: 'Invoices',
  einvoice: 'Invoices',
  call: 'Calls',
  email: 'E-mails',
  message: 'Messages',
  text: 'Texts',
  prompt: 'Image prompts',
  record: 'Records',
};

const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** This computer's date of `at` as YYYY-MM-DD. */
export function localDay(at: Date): string {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

/** The last name of a path as the user dropped it ("/home/me/Calls 26 Nov/" -> "Calls 26 Nov"), either separator. */
export function droppedName(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

/**
 * `count` items in all, `einvoices` of them e-invoices read on this computer (an OCR batch's XML
 * or PDF with XML): those are not scans, so the name counts them apart.
 */
export function batchNameParts(input: {
  capability: BatchCapability;
  channel: string | null;
  paths: readonly string[];
  count: number;
  einvoices?: number;
  /** When the batch is made (its day names a drop of several files). */
  now?: Date;
}): BatchNameParts {
  const first = input.paths[0];
  let what: string | null = null;
  const several = input.paths.length > 1;
  if (first !== undefined && !several) {
    // A name on Linux may hold ESC or a CR: made inert, like every name from outside.
    what = escapeControls(droppedName(first)).trim() || first;
    if (what.length > MAX_WHAT) what = `${what.slice(0, MAX_WHAT - 1)}…`;
  }
  const einvoices = Math.min(input.einvoices ?? 0, input.count);
  const own = { noun: itemNounOf(input.capability, input.channel), n: input.count - einvoices };
  const counts = einvoices === 0 ? [own] : own.n === 0 ? [{ noun: 'einvoice' as const, n: einvoices }] : [own, { noun: 'einvoice' as const, n: einvoices }];
  return { what, more: Math.max(0, input.paths.length - 1), day: several ? localDay(input.now ?? new Date()) : null, counts };
}

/** The first kind's group word's key: what a drop of several files is called ("Invoices"). */
export function groupNounOf(parts: BatchNameParts): ItemNoun {
  return parts.counts[0]?.noun ?? 'record';
}

/** "Calls 26 Nov (300 recordings)"; several paths: "Invoices 30 Nov (6 scans, 3 e-invoices)"; no path: "3 texts". */
export function englishBatchName(parts: BatchNameParts): string {
  const count = parts.counts
    .map(({ noun, n }) => {
      const [one, many] = ENGLISH_NOUNS[noun];
      return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
    })
    .join(', ');
  if (parts.day !== null) {
    const [, month, day] = parts.day.split('-').map(Number);
    return `${ENGLISH_GROUPS[groupNounOf(parts)]} ${day ?? ''} ${ENGLISH_MONTHS[(month ?? 1) - 1] ?? ''} (${count})`;
  }
  if (parts.what === null) return `${count[0]?.toUpperCase() ?? ''}${count.slice(1)}`;
  const more = parts.more > 0 ? ` and ${parts.more} more` : '';
  return `${parts.what}${more} (${count})`;
}

/** The English default name (the command line's, and every batch not named by the window). */
export function defaultBatchName(input: Parameters<typeof batchNameParts>[0]): string {
  return englishBatchName(batchNameParts(input));
}
