// What a capability is, as data every layer reads: its names, its unit, what it takes as input,
// which batch options apply, how it is priced, the shape of its result, what that result offers
// a follow-up step, and its export columns. Planner, importers, exports, CLI usage and the New
// batch screen are generic over these descriptors; only the engine module (request, response,
// units) and the renderer's result view are written per capability.
import type { z } from 'zod';
import type { MediaKind } from '../media';
import type { Tier } from '../tier';
import type { Money } from '../money';
import type { OptionName, StoredOptions } from './options';
import type { Invoice } from '../invoices/invoice';

export type Cell = string | number | null;

/** A timed piece of a result (a transcript's segment): seconds from the start of its source. */
export interface Cue {
  start: number;
  end: number;
  text: string;
  /** Who speaks ("Agent"), when the API told; null otherwise. */
  speaker: string | null;
}

/** How a capability's items arrive. */
export type InputSpec =
  /** Files and folders of one media kind, sniffed and measured. */
  | { kind: 'files'; media: MediaKind }
  /** A message CSV: to, text (subject for email), more columns as {{placeholders}}. */
  | { kind: 'messages' }
  /**
   * A CSV with `column` (and the optional columns), or a TXT file with one item per non-empty
   * line. `column: null` takes every column of a CSV row as the item's fields (CRM records).
   */
  | { kind: 'rows'; column: string | null; optional: readonly string[] };

/**
 * A rate item of a capability: its name in the rates table and its default price per unit and tier.
 * `I` is the name's type: a string here, `RateItem` (catalog.ts) once the catalog is complete,
 * which is built from these descriptors and so cannot be named by them.
 */
export interface RatePrice<I extends string = string> {
  readonly item: I;
  readonly label: string;
  /** 1/10,000 EUR per unit, until the user enters the rates published in the panel. */
  readonly perTier: Readonly<Record<Tier, Money>>;
}

export interface CapabilityDescriptor<I extends string = string> {
  readonly name: string;
  /** "Transcribe recordings": the New batch choice. */
  readonly label: string;
  /** "Transcription": tables and cards. */
  readonly short: string;
  /** One line under the label on New batch. */
  readonly hint: string;
  /** Billable unit, plural ("audio seconds"). */
  readonly unit: string;
  readonly input: InputSpec;
  /** The kind of key its requests carry: channel routes take channel keys, every other route API keys. */
  readonly credential: 'api' | 'channel';
  /** What each item changes outside Batchdesk (a person messaged, a CRM record written): such work is never done twice to compare tiers. */
  readonly sideEffect?: string;
  /** What to drop or choose, in words ("recordings (wav, mp3, ...) or folders of them"). */
  readonly inputHelp: string;
  /** Accepts the results of another batch as its items (`--from`, pipelines). */
  readonly takesFrom: boolean;
  /** Batch options that apply (any other is refused at every boundary). */
  readonly options: readonly OptionName[];
  /** The option a pipeline step's `:value` sets (`text:summary`), one of `options`; absent: the step takes none. */
  readonly stepOption?: OptionName;
  /** Its rate items with their default prices (the channel has one per kind of channel). */
  readonly rates: readonly RatePrice<I>[];
  rateItem(channel: string | null): I;
  /** The stored result, validated wherever it is read. */
  readonly result: z.ZodType;
  /** The text a follow-up step takes from a succeeded result, or null when it offers none. */
  offers(result: unknown): string | null;
  /**
   * How much text a result offers a next step, for estimates before anything ran: characters per
   * unit of this capability, and that ratio in words. Null: nothing for a next step.
   */
  readonly yields: { perUnit(options: StoredOptions): number; basis(options: StoredOptions): string } | null;
  /** How units are counted: characters of the input, one per item, or measured from the file. */
  readonly measure: 'characters' | 'items' | 'media';
  /** A one-line gist of a result for the job table (default: the start of its text, else its columns). */
  brief?(result: unknown): string | null;
  /** Export columns taken from the result (null result: the columns, all empty). */
  columns(result: unknown): Record<string, Cell>;
  /** The result is a file written to `<data folder>/outputs/<batch id>/`. */
  readonly outputs: 'audio' | 'image' | null;
  /**
   * Results timed against their source (transcripts), for SRT and WebVTT files: the cues of one,
   * or null when it is not such a result. `seconds`: the source's length when the result does not
   * say (the job's measured units). Absent: the capability's results are not timed.
   */
  cues?(result: unknown, seconds: number | null): Cue[] | null;
  /**
   * Results that are invoices (OCR): the invoice of one, or null when nothing was read. Such a
   * batch is checked, and exports as invoices, line items and UBL. Absent: not invoices.
   */
  invoice?(result: unknown): Invoice | null;
  /** Defaults shown in usage and applied when the user gives none. */
  readonly defaults?: Partial<StoredOptions>;
}

/** Parses with the descriptor's schema, for the pure functions above. */
export function resultOf<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | null {
  const r = schema.safeParse(value);
  return r.success ? r.data : null;
}

export function str(v: unknown): string | null {
  return v === undefined || v === null ? null : typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v);
}

/** A result in one line, for the job table: the descriptor's own gist, else its text's start, else its columns. */
export function briefOf(d: Pick<CapabilityDescriptor, 'brief' | 'offers' | 'columns'>, result: unknown): string | null {
  if (result === null || result === undefined) return null;
  const own = d.brief?.(result);
  if (own !== undefined && own !== null) return own;
  const text = d.offers(result);
  if (text) return text.replace(/\s+/g, ' ').trim().slice(0, 160);
  const cols = Object.values(d.columns(result)).filter((v) => v !== null && v !== '');
  return cols.length > 0 ? cols.join(' · ') : null;
}
