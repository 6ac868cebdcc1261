// The capabilities of the API (../shared/api-spec.md), one descriptor each; the list of
// capabilities (domain.ts) and of rate items (rates.ts) is taken from here. Adding a capability:
// docs/architecture.md, "Adding a capability".
import { z } from 'zod';
import { AUDIO_EXTENSIONS } from '../media';
import { channelKindOf, type ChannelKind } from '../channel-kind';
import { resultOf, type CapabilityDescriptor, type Cue } from './descriptor';
import type { TextTask } from './options';
import { formatAmount, Invoice } from '../invoices/invoice';
import { readInvoice } from '../invoices/read-invoice';

/** Characters of a text result per character of input, by task (estimates only). */
const TEXT_YIELD: Record<TextTask, number> = { summary: 0.2, reply: 0.5, classify: 0.01, extract: 0.3 };

/** A stretch of a transcript: seconds from the start of the recording (A7). */
export const TranscriptSegment = z
  .object({
    start: z.number().nonnegative(),
    end: z.number().nonnegative(),
    text: z.string(),
    speaker: z.string().nullable().optional(),
  })
  .refine((s) => s.start <= s.end, { message: 'a segment cannot end before it starts' });
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

export const TranscribeResult = z.object({
  text: z.string(),
  language: z.string().nullable().optional(),
  duration_seconds: z.number().nullable().optional(),
  /** Absent when the API answered the text alone: the transcript is then one cue over the whole recording. */
  segments: z.array(TranscriptSegment).optional(),
});

/** A transcript's cues: its segments, or (without any) its whole text over the whole recording. */
function transcriptCues(raw: unknown, seconds: number | null): Cue[] | null {
  const r = resultOf(TranscribeResult, raw);
  if (!r) return null;
  if (r.segments && r.segments.length > 0) return r.segments.map((s) => ({ start: s.start, end: s.end, text: s.text, speaker: s.speaker ?? null }));
  return [{ start: 0, end: r.duration_seconds ?? seconds ?? 0, text: r.text, speaker: null }];
}

export const OcrResult = z.object({
  text: z.string(),
  pages: z.array(z.object({ page: z.number(), text: z.string() })).optional(),
  /** As the API answered them (A8). */
  fields: z.record(z.string(), z.unknown()).optional(),
  /**
   * The fields read as an invoice by the engine (absent in results stored before it did). Checked
   * on its own (invoiceOf), so an invoice of another shape never hides the text.
   */
  invoice: z.unknown().optional(),
  /** Set when the item was an e-invoice, read on this computer from its XML (never sent, cost 0). */
  read_from: z.literal('e-invoice').optional(),
  /** Its syntax, and the PDF attachment the XML came from (null: the file was the XML). */
  e_invoice: z.object({ syntax: z.enum(['UBL', 'CII']), attachment: z.string().nullable() }).optional(),
});

/** What an item that was read from its e-invoice says wherever it is shown. */
export const READ_FROM_EINVOICE = 'read from the e-invoice';

/** Whether a stored OCR result was read from an e-invoice's XML (not by OCR). */
export function readFromEInvoice(raw: unknown): boolean {
  return resultOf(OcrResult, raw)?.read_from === 'e-invoice';
}

/** The invoice of an OCR result: as the engine read it, or read now from the fields of an older result. */
export function invoiceOf(raw: unknown): Invoice | null {
  const r = resultOf(OcrResult, raw);
  if (!r) return null;
  if (r.invoice === null) return null;
  const stored = Invoice.safeParse(r.invoice);
  return stored.success ? stored.data : readInvoice(r.fields ?? {});
}

export const ChannelResult = z.object({ message_id: z.string().nullable().optional(), status: z.string().nullable().optional() });

/** A file written under `<data folder>/outputs/<batch id>/`, by its name there. */
export const OutputFile = z.object({ file: z.string(), bytes: z.number().int().nonnegative(), mime: z.string() });

export const TtsResult = OutputFile.extend({ voice: z.string() });
export const TextResult = z.object({ text: z.string(), task: z.string(), label: z.string().nullable() });
export const ImageResult = OutputFile.extend({ width: z.number().int().nullable(), height: z.number().int().nullable() });
/** The vector itself is stored as Float32 in its own table, not in the result. */
export const EmbeddingsResult = z.object({ dimensions: z.number().int().positive() });
export const CrmResult = z.object({ record: z.string(), record_id: z.string() });

/** The invoice's own columns in every export of an OCR batch (the invoices CSV adds the checks). */
export function invoiceColumns(inv: Invoice | null): Record<string, string | number | null> {
  const amount = (a: number | null | undefined): string | null => (a === null || a === undefined ? null : formatAmount(a));
  const vat = inv?.vat ?? [];
  return {
    vendor: inv?.vendor ?? null,
    vendor_vat_id: inv?.vendorVatId ?? null,
    vendor_country: inv?.country ?? null,
    buyer: inv?.buyer ?? null,
    invoice_number: inv?.invoiceNumber ?? null,
    issue_date: inv?.issueDate ?? null,
    due_date: inv?.dueDate ?? null,
    currency: inv?.currency ?? null,
    net: amount(inv?.net),
    vat_rates: vat.length > 0 ? vat.map((v) => String(v.rate)).join('; ') : null,
    vat_amount: vat.length > 0 && vat.every((v) => v.amount !== null) ? amount(vat.reduce((s, v) => s + (v.amount ?? 0), 0)) : null,
    gross: amount(inv?.gross),
    // The account to pay: as read, or as the review corrected it.
    iban: inv?.iban ?? null,
    line_items: inv ? inv.lines.length : null,
  };
}

const transcribe: CapabilityDescriptor = {
  name: 'transcribe',
  label: 'Transcribe recordings',
  short: 'Transcription',
  hint: 'Audio files to text, billed per audio second.',
  unit: 'audio seconds',
  input: { kind: 'files', media: 'audio' },
  credential: 'api',
  inputHelp: `recordings (${AUDIO_EXTENSIONS.join(', ')}) or folders of them`,
  takesFrom: false,
  options: [],
  rates: [{ item: 'transcribe', label: 'Transcription', perTier: { basic: 2, standard: 4, superior: 8 } }],
  rateItem: () => 'transcribe',
  result: TranscribeResult,
  // Speech runs at about 150 words a minute, about 15 characters a second with spaces.
  yields: { perUnit: () => 15, basis: () => 'about 15 characters of transcript per audio second' },
  measure: 'media',
  offers: (r) => resultOf(TranscribeResult, r)?.text ?? null,
  columns: (raw) => {
    const r = resultOf(TranscribeResult, raw);
    return { language: r?.language ?? null, duration_seconds: r?.duration_seconds ?? null, text: r?.text ?? null };
  },
  outputs: null,
  cues: transcriptCues,
};

const ocr: CapabilityDescriptor = {
  name: 'ocr',
  label: 'OCR invoices',
  short: 'OCR',
  hint: 'Scanned invoices to text and fields, billed per page.',
  unit: 'pages',
  input: { kind: 'files', media: 'document' },
  credential: 'api',
  inputHelp: 'invoices (pdf, png, jpeg, tiff; e-invoices, as XML or ZUGFeRD/Factur-X PDF, are read on this computer for free) or folders of them',
  takesFrom: false,
  options: [],
  rates: [{ item: 'ocr', label: 'OCR', perTier: { basic: 50, standard: 100, superior: 200 } }],
  rateItem: () => 'ocr',
  result: OcrResult,
  // A typed invoice page holds about 1,500 characters.
  yields: { perUnit: () => 1500, basis: () => 'about 1,500 characters of text per page' },
  measure: 'media',
  offers: (r) => resultOf(OcrResult, r)?.text ?? null,
  brief: (raw) => {
    const inv = invoiceOf(raw);
    if (!inv) return null;
    const parts = [inv.invoiceNumber, inv.vendor, inv.gross !== null ? `${formatAmount(inv.gross)}${inv.currency ? ` ${inv.currency}` : ''}` : null].filter(
      (x) => x !== null && x !== '',
    );
    if (readFromEInvoice(raw)) parts.push(READ_FROM_EINVOICE);
    return parts.length > 0 ? parts.join(' · ') : null;
  },
  columns: (raw) => {
    const r = resultOf(OcrResult, raw);
    return {
      ...invoiceColumns(invoiceOf(raw)),
      read_from: r === null ? null : r.read_from === 'e-invoice' ? READ_FROM_EINVOICE : 'OCR',
      text: r?.text ?? null,
    };
  },
  outputs: null,
  invoice: invoiceOf,
};

const channel: CapabilityDescriptor = {
  name: 'channel',
  label: 'Send messages',
  short: 'Messages',
  hint: 'One message or call per CSV row, billed per message.',
  unit: 'messages',
  input: { kind: 'messages' },
  credential: 'channel',
  sideEffect: 'each item sends a message or makes a call to a person',
  inputHelp: 'a CSV with the columns to and text (and subject for email)',
  takesFrom: false,
  options: ['channel', 'voice'],
  rates: [
    { item: 'channel.messaging', label: 'Messaging app', perTier: { basic: 50, standard: 50, superior: 50 } },
    { item: 'channel.voice', label: 'Voice call', perTier: { basic: 150, standard: 150, superior: 150 } },
    { item: 'channel.email', label: 'Email', perTier: { basic: 10, standard: 10, superior: 10 } },
  ],
  rateItem: (ch) => `channel.${channelKindOf(ch ?? 'whatsapp')}`,
  result: ChannelResult,
  yields: null,
  measure: 'items',
  offers: () => null,
  columns: (raw) => {
    const r = resultOf(ChannelResult, raw);
    return { message_id: r?.message_id ?? null, status: r?.status ?? null };
  },
  outputs: null,
};

const tts: CapabilityDescriptor = {
  name: 'tts',
  label: 'Text to speech',
  short: 'Speech',
  hint: 'Text to audio files, billed per character.',
  unit: 'characters',
  input: { kind: 'rows', column: 'text', optional: ['voice', 'name'] },
  credential: 'api',
  inputHelp: 'a CSV with the column text (voice and name optional) or a TXT file, one item per line',
  takesFrom: true,
  options: ['voice'],
  stepOption: 'voice',
  rates: [{ item: 'tts', label: 'Text to speech', perTier: { basic: 1, standard: 2, superior: 4 } }],
  rateItem: () => 'tts',
  result: TtsResult,
  yields: null,
  measure: 'characters',
  offers: () => null,
  columns: (raw) => {
    const r = resultOf(TtsResult, raw);
    return { file: r?.file ?? null, bytes: r?.bytes ?? null, voice: r?.voice ?? null };
  },
  outputs: 'audio',
  defaults: { voice: 'alloy' },
};

const text: CapabilityDescriptor = {
  name: 'text',
  label: 'Summarise, reply, classify',
  short: 'Text',
  hint: 'Summaries, replies, labels or extracts of texts, billed per input character.',
  unit: 'characters',
  input: { kind: 'rows', column: 'input', optional: ['name'] },
  credential: 'api',
  inputHelp: 'a CSV with the column input or a TXT file, one item per line',
  takesFrom: true,
  options: ['task', 'instructions', 'labels'],
  stepOption: 'task',
  rates: [{ item: 'text', label: 'Text', perTier: { basic: 1, standard: 3, superior: 9 } }],
  rateItem: () => 'text',
  result: TextResult,
  // Answers are shorter than what they answer: a summary about a fifth, a reply about half.
  yields: {
    perUnit: (o) => TEXT_YIELD[o.task ?? 'summary'],
    basis: (o) => `a ${o.task ?? 'summary'} is about ${Math.round(TEXT_YIELD[o.task ?? 'summary'] * 100)}% of its input's characters`,
  },
  measure: 'characters',
  offers: (r) => resultOf(TextResult, r)?.text ?? null,
  columns: (raw) => {
    const r = resultOf(TextResult, raw);
    return { task: r?.task ?? null, label: r?.label ?? null, text: r?.text ?? null };
  },
  outputs: null,
  defaults: { task: 'summary' },
};

const image: CapabilityDescriptor = {
  name: 'image',
  label: 'Generate images',
  short: 'Images',
  hint: 'One image per prompt, billed per image.',
  unit: 'images',
  input: { kind: 'rows', column: 'prompt', optional: ['name'] },
  credential: 'api',
  inputHelp: 'a CSV with the column prompt or a TXT file, one prompt per line',
  takesFrom: true,
  options: ['size'],
  stepOption: 'size',
  rates: [{ item: 'image', label: 'Image', perTier: { basic: 200, standard: 400, superior: 800 } }],
  rateItem: () => 'image',
  result: ImageResult,
  yields: null,
  measure: 'items',
  offers: () => null,
  columns: (raw) => {
    const r = resultOf(ImageResult, raw);
    return { file: r?.file ?? null, bytes: r?.bytes ?? null, width: r?.width ?? null, height: r?.height ?? null };
  },
  outputs: 'image',
  defaults: { size: '512x512' },
};

const embeddings: CapabilityDescriptor = {
  name: 'embeddings',
  label: 'Embed for search',
  short: 'Embeddings',
  hint: 'A vector per text, for search; billed per character.',
  unit: 'characters',
  input: { kind: 'rows', column: 'input', optional: ['name'] },
  credential: 'api',
  inputHelp: 'a CSV with the column input or a TXT file, one item per line',
  takesFrom: true,
  options: [],
  rates: [{ item: 'embeddings', label: 'Embeddings', perTier: { basic: 1, standard: 1, superior: 2 } }],
  rateItem: () => 'embeddings',
  result: EmbeddingsResult,
  yields: null,
  measure: 'characters',
  offers: () => null,
  columns: (raw) => ({ dimensions: resultOf(EmbeddingsResult, raw)?.dimensions ?? null }),
  outputs: null,
};

const crm: CapabilityDescriptor = {
  name: 'crm',
  label: 'Write to the CRM',
  short: 'CRM',
  hint: 'One contact, conversation or event per row, billed per record.',
  unit: 'records',
  input: { kind: 'rows', column: null, optional: [] },
  credential: 'api',
  sideEffect: 'each item writes a record into the CRM',
  inputHelp: 'a CSV, one record per row (its columns become the record fields)',
  takesFrom: true,
  options: ['record'],
  stepOption: 'record',
  rates: [{ item: 'crm', label: 'CRM', perTier: { basic: 5, standard: 5, superior: 5 } }],
  rateItem: () => 'crm',
  result: CrmResult,
  yields: null,
  measure: 'items',
  offers: () => null,
  columns: (raw) => {
    const r = resultOf(CrmResult, raw);
    return { record: r?.record ?? null, record_id: r?.record_id ?? null };
  },
  outputs: null,
  defaults: { record: 'contact' },
};

/** Every capability, in the order lists show them; `Capability` (domain.ts) is one of these names. */
export const CAPABILITY_DESCRIPTORS = { transcribe, ocr, channel, tts, text, image, embeddings, crm } as const satisfies Record<string, CapabilityDescriptor>;

/** A capability's name (domain.ts's `Capability`, named here so the catalog needs nothing built from it). */
type Capability = keyof typeof CAPABILITY_DESCRIPTORS;
/** An item of the rates table: a capability, or the channel per kind of channel. */
export type RateItem = Exclude<Capability, 'channel'> | `channel.${ChannelKind}`;

export function describe(capability: Capability): CapabilityDescriptor<RateItem> {
  return CAPABILITY_DESCRIPTORS[capability] as CapabilityDescriptor<RateItem>;
}

/** The unit of a rate item, singular ("audio second"): `channel.voice` is priced per message. */
export function rateUnit(item: RateItem): string {
  const cap = item.split('.')[0] as Capability;
  return CAPABILITY_DESCRIPTORS[cap].unit.replace(/s$/, '');
}
