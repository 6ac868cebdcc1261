// Writes the sample inputs in resources/samples/: call recordings (WAV), invoices (PDF and PNG),
// e-invoices (XRechnung UBL and CII, a ZUGFeRD PDF) and message CSVs. Everything is synthesized
// here, with no randomness and no clock, so every run writes the same bytes and a changed sample
// shows up as a real diff.
//   npx tsx scripts/make-samples.ts [outDir]
// The builders are exported for the importer tests; the file only writes when run directly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { invoiceFields } from '../src/sandbox/invoice-extract';
import { PdfPageCounter, wavDurationSeconds } from '../src/shared/media';
import { mulberry32 as prng } from '../src/shared/prng';
import { readEInvoiceXml } from '../src/main/engine/invoices/einvoice-xml';
import { ciiXml, pdfWithAttachment, totalsOf, ublXml, type TestEInvoice } from '../test/helpers/einvoice-files';

// ---------------------------------------------------------------------------------------------
// WAV: 8 kHz 16-bit mono, a voice-like tone sequence, transcript in LIST/INFO ICMT.
// ---------------------------------------------------------------------------------------------

const SAMPLE_RATE = 8000;

interface Syllable {
  start: number; // seconds
  length: number;
  f0: number; // pitch at the start, Hz
  glide: number; // pitch change over the syllable, Hz
  f1: number; // formants: which harmonics are loud, like vowels
  f2: number;
  loudness: number;
}

export interface Turn {
  speaker: 'Agent' | 'Customer';
  text: string;
}

/** Rough syllable count of a word: groups of vowels, at least one. */
function syllablesOf(word: string): number {
  return Math.max(1, (word.toLowerCase().match(/[aeiouy]+/g) ?? []).length);
}

/** Lays out one syllable per spoken syllable of the transcript, scaled to the target duration. */
function planSyllables(turns: readonly Turn[], seconds: number, seed: number): Syllable[] {
  const rnd = prng(seed);
  const plan: { gapBefore: number; length: number; speaker: Turn['speaker'] }[] = [];
  turns.forEach((turn, t) => {
    turn.text
      .split(/\s+/)
      .filter(Boolean)
      .forEach((word, w) => {
        for (let s = 0; s < syllablesOf(word); s++) {
          const gap = s > 0 ? 0.015 : w > 0 ? 0.06 + rnd() * 0.08 : t > 0 ? 0.35 : 0.2;
          plan.push({ gapBefore: gap, length: 0.11 + rnd() * 0.12, speaker: turn.speaker });
        }
      });
  });
  const nominal = plan.reduce((sum, p) => sum + p.gapBefore + p.length, 0) + 0.25;
  const scale = seconds / nominal;
  const vowels: [number, number][] = [
    [730, 1090],
    [530, 1840],
    [270, 2290],
    [570, 840],
    [300, 870],
    [640, 1190],
  ];
  let at = 0;
  return plan.map((p) => {
    at += p.gapBefore * scale;
    const base = p.speaker === 'Agent' ? 205 : 125;
    const [f1, f2] = vowels[Math.floor(rnd() * vowels.length)] ?? [500, 1500];
    const syl: Syllable = {
      start: at,
      length: p.length * scale,
      f0: base * (0.9 + rnd() * 0.25),
      glide: base * (rnd() * 0.3 - 0.18),
      f1,
      f2,
      loudness: 0.55 + rnd() * 0.35,
    };
    at += p.length * scale;
    return syl;
  });
}

/** PCM samples: harmonics of a gliding pitch shaped by two formants, under a syllable envelope. */
function synthesize(syllables: readonly Syllable[], seconds: number, seed: number): Int16Array {
  const n = Math.round(seconds * SAMPLE_RATE);
  const out = new Float64Array(n);
  for (const s of syllables) {
    const first = Math.floor(s.start * SAMPLE_RATE);
    const count = Math.floor(s.length * SAMPLE_RATE);
    const phases = new Float64Array(12);
    for (let i = 0; i < count && first + i < n; i++) {
      const x = i / count;
      const f0 = s.f0 + s.glide * x;
      // Raised-cosine attack and a slower decay, like a spoken vowel.
      const env = x < 0.2 ? 0.5 - 0.5 * Math.cos((Math.PI * x) / 0.2) : 0.5 + 0.5 * Math.cos((Math.PI * (x - 0.2)) / 0.8);
      let v = 0;
      for (let k = 1; k <= 12 && k * f0 < SAMPLE_RATE / 2 - 200; k++) {
        const f = k * f0;
        const gain = Math.exp(-(((f - s.f1) / 180) ** 2)) + 0.6 * Math.exp(-(((f - s.f2) / 260) ** 2)) + 0.08 / k;
        phases[k - 1] = ((phases[k - 1] ?? 0) + (2 * Math.PI * f) / SAMPLE_RATE) % (2 * Math.PI);
        v += gain * Math.sin(phases[k - 1] ?? 0);
      }
      out[first + i] = (out[first + i] ?? 0) + v * env * s.loudness;
    }
  }
  const rnd = prng(seed ^ 0x5eed);
  let peak = 1e-9;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const hiss = (rnd() - 0.5) * 0.01; // a little line noise, as on a phone call
    pcm[i] = Math.round(Math.max(-1, Math.min(1, ((out[i] ?? 0) / peak) * 0.7 + hiss)) * 32767);
  }
  return pcm;
}

function riffChunk(id: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A PCM WAV with a LIST/INFO chunk (INAM title, ICMT transcript) placed before the audio. */
export function buildWav(pcm: Int16Array, info: { title: string; comment: string }): Buffer {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(SAMPLE_RATE, 4);
  fmt.writeUInt32LE(SAMPLE_RATE * 2, 8); // byte rate
  fmt.writeUInt16LE(2, 12); // block align
  fmt.writeUInt16LE(16, 14); // bits per sample
  const zstr = (s: string) => Buffer.from(`${s}\0`, 'latin1');
  const list = riffChunk(
    'LIST',
    Buffer.concat([
      Buffer.from('INFO', 'latin1'),
      riffChunk('INAM', zstr(info.title)),
      riffChunk('ISFT', zstr('Batchdesk scripts/make-samples.ts')),
      riffChunk('ICMT', zstr(info.comment)),
    ]),
  );
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), riffChunk('fmt ', fmt), list, riffChunk('data', data)]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

export interface Recording {
  file: string;
  seconds: number;
  title: string;
  turns: Turn[];
}

export const RECORDINGS: Recording[] = [
  {
    file: 'call-001-double-charge.wav',
    seconds: 5.4,
    title: 'Billing line, double charge',
    turns: [
      { speaker: 'Agent', text: 'Good morning, Harbourline Energy, this is Maya. How can I help?' },
      { speaker: 'Customer', text: 'Hi, I think I was charged twice for October.' },
      { speaker: 'Agent', text: "I'm sorry about that, let me check your account." },
    ],
  },
  {
    file: 'call-002-late-parcel.wav',
    seconds: 4.6,
    title: 'Parcel desk, late delivery',
    turns: [
      { speaker: 'Agent', text: 'Parcel desk, Tom speaking.' },
      { speaker: 'Customer', text: "My order A-10231 still hasn't arrived." },
      { speaker: 'Agent', text: 'Let me track it for you, one moment.' },
    ],
  },
  {
    file: 'call-003-cancel-plan.wav',
    seconds: 3.5,
    title: 'Retention desk, cancellation',
    turns: [
      { speaker: 'Customer', text: "Hello, I'd like to cancel my mobile plan." },
      { speaker: 'Agent', text: 'Of course. Can I have your account number?' },
    ],
  },
];

/**
 * What the call with personal data holds: the caller's name (which redaction does not look for), a
 * UK drama-range phone number said digit by digit, and the IBAN of the ECBS's published example
 * (valid check digits, no one's account).
 */
export const PERSONAL_DATA = {
  name: 'Eleanor Whitcombe',
  phoneSaid: 'Plus four four, two zero, seven nine four six, zero nine five eight',
  iban: 'GB82 WEST 1234 5698 7654 32',
} as const;

/** A call with personal data in it, for redaction to find (kept apart, so the three calls above stay the plain samples). */
export const PERSONAL_RECORDING: Recording = {
  file: 'call-004-refund-details.wav',
  seconds: 9.5,
  title: 'Billing line, refund with personal details',
  turns: [
    { speaker: 'Agent', text: 'Harbourline Energy billing, this is Maya. Who am I speaking with?' },
    { speaker: 'Customer', text: `${PERSONAL_DATA.name}. I was charged twice and I'd like the refund paid to my bank.` },
    { speaker: 'Agent', text: 'Of course. A number to reach you, and the IBAN?' },
    { speaker: 'Customer', text: `${PERSONAL_DATA.phoneSaid}. The IBAN is ${PERSONAL_DATA.iban}.` },
    { speaker: 'Agent', text: 'Thank you, Eleanor. The refund goes out within five working days.' },
  ],
};

export function transcriptOf(r: Recording): string {
  return r.turns.map((t) => `${t.speaker}: ${t.text}`).join('\n');
}

export function recordingBytes(r: Recording, index: number): Buffer {
  const seed = 1000 + index;
  const pcm = synthesize(planSyllables(r.turns, r.seconds, seed), r.seconds, seed);
  return buildWav(pcm, { title: r.title, comment: transcriptOf(r) });
}

// ---------------------------------------------------------------------------------------------
// PDF: hand-written objects, uncompressed content streams, Helvetica, exact xref offsets.
// ---------------------------------------------------------------------------------------------

export interface PdfLine {
  text: string;
  size?: number;
  bold?: boolean;
  /** Second column, drawn at a fixed x (amounts). */
  right?: string;
  /** Draw a thin rule under the line. */
  rule?: boolean;
}

function pdfString(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function pageContent(lines: readonly PdfLine[]): string {
  const ops: string[] = [];
  let y = 790;
  for (const line of lines) {
    const size = line.size ?? 11;
    const font = line.bold ? '/F2' : '/F1';
    if (line.text !== '') ops.push('BT', `${font} ${size} Tf`, `1 0 0 1 56 ${y} Tm`, `${pdfString(line.text)} Tj`, 'ET');
    if (line.right !== undefined) ops.push('BT', `${font} ${size} Tf`, `1 0 0 1 440 ${y} Tm`, `${pdfString(line.right)} Tj`, 'ET');
    if (line.rule) ops.push('0.5 w', `56 ${y - 5} m 539 ${y - 5} l S`);
    y -= Math.round(size * 1.6);
  }
  return `${ops.join('\n')}\n`;
}

/** A minimal valid PDF 1.4: one Helvetica text page per entry of `pages`. */
export function buildPdf(pages: readonly (readonly PdfLine[])[], title: string): Buffer {
  const objects: string[] = []; // objects[i] is object number i + 1
  const pageCount = pages.length;
  const firstPage = 6;
  const kids = pages.map((_, i) => `${firstPage + 2 * i} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  objects.push(`<< /Title ${pdfString(title)} /Producer (Batchdesk make-samples) >>`);
  pages.forEach((lines, i) => {
    const content = pageContent(lines);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${firstPage + 2 * i + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
  });
  // Latin-1 throughout: one character is one byte, so string lengths are byte offsets.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Checks every xref entry points at "N 0 obj" and startxref at "xref"; returns the errors found. */
export function checkPdfXref(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const errors: string[] = [];
  const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1] ?? -1);
  if (text.slice(start, start + 4) !== 'xref') errors.push(`startxref ${start} does not point at the xref table`);
  const table = /xref\n0 (\d+)\n([\s\S]*?)trailer/.exec(text.slice(start));
  const entries = (table?.[2] ?? '').match(/.{20}/gs) ?? [];
  if (entries.length !== Number(table?.[1] ?? -1)) errors.push('xref entry count does not match its header (entries must be 20 bytes)');
  entries.forEach((e, n) => {
    if (n === 0) return;
    const off = Number(e.slice(0, 10));
    if (!text.startsWith(`${n} 0 obj`, off)) errors.push(`object ${n}: xref offset ${off} is wrong`);
  });
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Invoices: one data model, rendered as PDF lines or as PNG text, in English or German.
// ---------------------------------------------------------------------------------------------

export interface Invoice {
  file: string;
  /** A credit note is headed "CREDIT NOTE" and numbered under "Credit note number" (its amounts printed positive). */
  kind?: 'credit-note';
  /** Labels, dates and number format: English ("1,234.50") or German ("1.234,50", "03.10.2026"). */
  lang: 'en' | 'de';
  vendor: string;
  address: string;
  /** How the vendor's VAT id is labelled and printed (fictional numbers of the country's format); null: not printed. */
  vatIdLabel: string;
  vatIdPrinted: string | null;
  /** The VAT id as the sandbox answers it: spaces removed, upper case. */
  vatId: string;
  number: string;
  /** Issue date, YYYY-MM-DD. */
  date: string;
  /** Printed as "Invoice date:" (or "Date:"); German invoices always say "Rechnungsdatum:". */
  dateLabel: string;
  /** How dates are written: ISO, day-first with dots or slashes, or "7 October 2026". */
  dateStyle: 'iso' | 'dots' | 'slashes' | 'words';
  /** A printed due date (YYYY-MM-DD) with its label, or payment terms in days. */
  due: { label: string; date: string } | { days: number };
  /** Label and the buyer's line ("Quillfield Consulting Ltd, 8 Wharf Lane, Bristol BS1 6HU, United Kingdom"). */
  buyerLabel: string;
  buyer: string;
  currency: 'EUR' | 'GBP' | 'NOK';
  /** VAT rate, percent, and how its line is labelled ("VAT {rate}%"). */
  vatRate: number;
  vatLabel: string;
  netLabel: string;
  grossLabel: string;
  items: { description: string; quantity: number; unitCents: number }[];
  /** Printed total minus the true net + VAT: a typo on the invoice, for the checks to find (0 when right). */
  grossErrorCents: number;
  footer: string;
}

/** "1,234.50" (en) or "1.234,50" (de). */
export function formatAmount(cents: number, lang: 'en' | 'de' = 'en'): string {
  const [thousands, decimal] = lang === 'de' ? ['.', ','] : [',', '.'];
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${whole}${decimal}${String(cents % 100).padStart(2, '0')}`;
}

/** Net: the line amounts, exactly. */
export function netCents(inv: Invoice): number {
  return inv.items.reduce((sum, it) => sum + it.quantity * it.unitCents, 0);
}

/** VAT: net x rate, rounded half up to the cent. */
export function vatCentsOf(inv: Invoice): number {
  const tenths = Math.round(inv.vatRate * 10);
  return Math.floor((netCents(inv) * tenths * 2 + 1000) / 2000);
}

/** The total printed on the invoice: net + VAT, plus the invoice's deliberate error. */
export function printedGrossCents(inv: Invoice): number {
  return netCents(inv) + vatCentsOf(inv) + inv.grossErrorCents;
}

/** The due date, YYYY-MM-DD: printed, or the issue date plus the payment terms. */
export function dueDateOf(inv: Invoice): string {
  if ('date' in inv.due) return inv.due.date;
  const d = new Date(`${inv.date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + inv.due.days);
  return d.toISOString().slice(0, 10);
}

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function formatDate(iso: string, style: Invoice['dateStyle']): string {
  const [y, m, d] = iso.split('-');
  switch (style) {
    case 'dots':
      return `${d}.${m}.${y}`;
    case 'slashes':
      return `${d}/${m}/${y}`;
    case 'words':
      return `${Number(d)} ${MONTHS_EN[Number(m) - 1] ?? ''} ${y}`;
    default:
      return iso;
  }
}

const WEEKS = Array.from({ length: 26 }, (_, i) => i + 27);
const QUILLFIELD = 'Quillfield Consulting Ltd, 8 Wharf Lane, Bristol BS1 6HU, United Kingdom';

export const INVOICES: Invoice[] = [
  {
    file: 'invoice-aldenmoor-INV-2026-0012.pdf',
    lang: 'de',
    vendor: 'Aldenmoor Office Supply GmbH',
    address: 'Lindenweg 14, 10115 Berlin, Deutschland',
    vatIdLabel: 'USt-IdNr.',
    vatIdPrinted: 'DE284719365',
    vatId: 'DE284719365',
    number: 'INV-2026-0012',
    date: '2026-10-03',
    dateLabel: 'Rechnungsdatum',
    dateStyle: 'dots',
    due: { label: 'Zahlbar bis', date: '2026-10-17' },
    buyerLabel: 'Rechnungsempfänger',
    buyer: 'Quillfield Consulting GmbH, Torstraße 5, 10119 Berlin, Deutschland',
    currency: 'EUR',
    vatRate: 19,
    vatLabel: 'USt. {rate} %',
    netLabel: 'Nettobetrag',
    grossLabel: 'Gesamtbetrag',
    items: [
      { description: 'Bürostuhl, ergonomisch', quantity: 2, unitCents: 28900 },
      { description: 'Schreibtischgestell, höhenverstellbar', quantity: 1, unitCents: 41250 },
      { description: 'Monitorarm, doppelt', quantity: 2, unitCents: 12200 },
    ],
    grossErrorCents: 0,
    footer: 'Vielen Dank für Ihren Auftrag.',
  },
  {
    file: 'invoice-copperfinch-INV-2026-0047.pdf',
    lang: 'en',
    vendor: 'Copperfinch Catering Ltd',
    address: '22 Mill Street, Leeds LS2 7EE, United Kingdom',
    vatIdLabel: 'VAT Reg No',
    vatIdPrinted: 'GB 318 4472 06',
    vatId: 'GB318447206',
    number: 'INV-2026-0047',
    date: '2026-10-07',
    dateLabel: 'Invoice date',
    dateStyle: 'words',
    due: { label: 'Due date', date: '2026-10-21' },
    buyerLabel: 'Bill to',
    buyer: QUILLFIELD,
    currency: 'GBP',
    vatRate: 20,
    vatLabel: 'VAT {rate}%',
    netLabel: 'Subtotal',
    grossLabel: 'Total due',
    items: [
      { description: 'Lunch buffet, 24 guests', quantity: 24, unitCents: 1850 },
      { description: 'Coffee and tea service', quantity: 1, unitCents: 9600 },
      { description: 'Delivery and set-up', quantity: 1, unitCents: 3500 },
    ],
    grossErrorCents: 0,
    footer: 'Thank you for your business.',
  },
  {
    file: 'invoice-halvorsen-INV-2026-0103.pdf',
    lang: 'en',
    vendor: 'Halvorsen Freight & Storage AS',
    address: 'Kaigata 3, 5003 Bergen, Norway',
    vatIdLabel: 'Org.nr / VAT',
    vatIdPrinted: 'NO 981442503 MVA',
    vatId: 'NO981442503MVA',
    number: 'INV-2026-0103',
    date: '2026-10-15',
    dateLabel: 'Invoice date',
    dateStyle: 'dots',
    due: { days: 30 },
    buyerLabel: 'Bill to',
    buyer: QUILLFIELD,
    currency: 'NOK',
    vatRate: 25,
    vatLabel: 'VAT (MVA) {rate}%',
    netLabel: 'Net amount',
    grossLabel: 'Total',
    items: WEEKS.map((w, i) => ({ description: `Pallet storage, week ${w}`, quantity: 10 + (i % 4), unitCents: 4950 })),
    grossErrorCents: 0,
    footer: 'Payable within 30 days. Thank you.',
  },
];

export const PNG_INVOICE: Invoice = {
  file: 'invoice-marlowe-INV-2026-0088.png',
  lang: 'en',
  vendor: 'Marlowe Print & Sign Ltd',
  address: '5 Tannery Yard, Norwich NR3 1AU, United Kingdom',
  vatIdLabel: 'VAT number',
  vatIdPrinted: 'GB 562 8841 30',
  vatId: 'GB562884130',
  number: 'INV-2026-0088',
  date: '2026-10-09',
  dateLabel: 'Date',
  dateStyle: 'slashes',
  due: { label: 'Payment due', date: '2026-11-08' },
  buyerLabel: 'Bill to',
  buyer: 'Quillfield Consulting Ltd, Bristol',
  currency: 'GBP',
  vatRate: 20,
  vatLabel: 'VAT {rate}%',
  netLabel: 'Net',
  grossLabel: 'Total',
  items: [
    { description: 'Vinyl banner 3 x 1 m', quantity: 2, unitCents: 14500 },
    { description: 'Business cards, 500', quantity: 4, unitCents: 3900 },
    { description: 'Design work, hours', quantity: 3, unitCents: 6500 },
  ],
  // The printed total is 10.00 more than net + VAT: the sample the invoice checks must flag.
  grossErrorCents: 1000,
  footer: 'Thank you for your business.',
};

// The next month's post from two suppliers already seen in invoices/ (invoices-november/): a credit
// note from Copperfinch, headed "CREDIT NOTE", and Marlowe's next invoice, which does not print its
// VAT number. Once Marlowe's October invoice is accepted in review, the supplier memory (finding it
// by name) offers that VAT number on this one, and the duplicate check compares it with October's.
const COPPERFINCH = INVOICES[1] as Invoice;

export const NOVEMBER_INVOICES: Invoice[] = [
  {
    ...COPPERFINCH,
    file: 'credit-note-copperfinch-CN-2026-0009.pdf',
    kind: 'credit-note',
    number: 'CN-2026-0009',
    date: '2026-11-04',
    dateLabel: 'Date',
    due: { label: 'Due date', date: '2026-11-18' },
    netLabel: 'Subtotal',
    grossLabel: 'Total',
    items: [{ description: 'Lunch buffet, guests cancelled', quantity: 4, unitCents: 1850 }],
    footer: 'Credited against invoice INV-2026-0047 of 7 October 2026.',
  },
  {
    ...PNG_INVOICE,
    file: 'invoice-marlowe-INV-2026-0131.pdf',
    vatIdPrinted: null,
    number: 'INV-2026-0131',
    date: '2026-11-06',
    due: { label: 'Payment due', date: '2026-12-06' },
    buyer: QUILLFIELD,
    items: [
      { description: 'Window decals, set of 6', quantity: 1, unitCents: 8400 },
      { description: 'Business cards, 500', quantity: 2, unitCents: 3900 },
    ],
    grossErrorCents: 0,
  },
];

/** The invoice as lines of text: what a reader (and OCR) should find, in reading order. */
function invoiceLines(inv: Invoice): PdfLine[] {
  const de = inv.lang === 'de';
  const amount = (cents: number) => `${formatAmount(cents, inv.lang)} ${inv.currency}`;
  const date = (iso: string) => formatDate(iso, inv.dateStyle);
  const lines: PdfLine[] = [
    { text: inv.vendor, size: 18, bold: true },
    { text: inv.address, size: 9 },
    ...(inv.vatIdPrinted !== null ? [{ text: `${inv.vatIdLabel}: ${inv.vatIdPrinted}`, size: 9 }] : []),
    { text: '' },
  ];
  if (inv.kind === 'credit-note') {
    lines.push(
      { text: de ? 'GUTSCHRIFT' : 'CREDIT NOTE', size: 14, bold: true },
      { text: `${de ? 'Gutschriftsnummer' : 'Credit note number'}: ${inv.number}` },
    );
  } else {
    lines.push({ text: de ? 'RECHNUNG' : 'INVOICE', size: 14, bold: true }, { text: `${de ? 'Rechnungsnummer' : 'Invoice number'}: ${inv.number}` });
  }
  lines.push({ text: `${inv.dateLabel}: ${date(inv.date)}` });
  if ('date' in inv.due) lines.push({ text: `${inv.due.label}: ${date(inv.due.date)}` });
  lines.push(
    { text: `${inv.buyerLabel}: ${inv.buyer}` },
    { text: '' },
    { text: de ? 'Beschreibung' : 'Description', bold: true, right: de ? 'Betrag' : 'Amount', rule: true },
  );
  for (const it of inv.items) {
    lines.push({ text: `${it.quantity} x ${it.description} @ ${formatAmount(it.unitCents, inv.lang)}`, right: amount(it.quantity * it.unitCents) });
  }
  lines.push({ text: '', rule: true });
  const rate = de ? String(inv.vatRate).replace('.', ',') : String(inv.vatRate);
  lines.push({ text: `${inv.netLabel}:`, right: amount(netCents(inv)) });
  lines.push({ text: `${inv.vatLabel.replace('{rate}', rate)}:`, right: amount(vatCentsOf(inv)) });
  lines.push({ text: `${inv.grossLabel}:`, right: amount(printedGrossCents(inv)), size: 13, bold: true });
  lines.push({ text: '' });
  lines.push({ text: inv.footer, size: 9 });
  return lines;
}

/** Splits the lines over pages of at most `perPage` lines, marking continuation pages. */
function paginate(lines: PdfLine[], perPage: number): PdfLine[][] {
  if (lines.length <= perPage) return [lines];
  const pages: PdfLine[][] = [];
  for (let i = 0; i < lines.length; i += perPage) {
    const page = lines.slice(i, i + perPage);
    if (i > 0) page.unshift({ text: `${lines[0]?.text ?? ''} (continued, page ${pages.length + 1})`, bold: true }, { text: '' });
    pages.push(page);
  }
  return pages;
}

/** The invoice's text as one reader sees it (a right-hand column after two spaces). */
export function invoiceText(inv: Invoice): string {
  return invoiceLines(inv)
    .map((l) => (l.right !== undefined ? `${l.text}  ${l.right}` : l.text))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/**
 * An address the samples print as "street, postcode town, country" or "street, town postcode,
 * country" (the UK's), as the sandbox answers it; the PNG's "Bristol" alone is no address.
 */
function addressFields(parts: string[]): Record<string, string> | null {
  const [street, place, country] = parts.map((p) => p.trim());
  if (street === undefined || place === undefined) return null;
  const first = /^(\d{4,5}) (.+)$/.exec(place);
  const last = /^(.+?) ([A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})$/.exec(place);
  return {
    street,
    city: first?.[2] ?? last?.[1] ?? place,
    ...(first || last ? { postal_code: first?.[1] ?? last?.[2] ?? '' } : {}),
    ...(country !== undefined ? { country } : {}),
  };
}

/** The fields the sandbox's OCR must answer for the invoice (A8). */
export function expectedFields(inv: Invoice): Record<string, unknown> {
  const cents = (c: number) => (c / 100).toFixed(2);
  const gross = cents(printedGrossCents(inv));
  const buyerAddress = addressFields(inv.buyer.split(',').slice(1));
  return {
    ...(inv.kind === 'credit-note' ? { document_type: 'credit-note' } : {}),
    vendor: inv.vendor,
    vendor_address: addressFields(inv.address.split(',')),
    ...(inv.vatIdPrinted !== null ? { vendor_vat_id: inv.vatId } : {}),
    buyer: inv.buyer.split(',')[0],
    ...(buyerAddress ? { buyer_address: buyerAddress } : {}),
    invoice_number: inv.number,
    issue_date: inv.date,
    due_date: dueDateOf(inv),
    currency: inv.currency,
    line_items: inv.items.map((it) => ({
      description: it.description,
      quantity: it.quantity,
      unit_price: cents(it.unitCents),
      amount: cents(it.quantity * it.unitCents),
    })),
    net: cents(netCents(inv)),
    vat: [{ rate: inv.vatRate, amount: cents(vatCentsOf(inv)) }],
    gross,
    invoice_date: inv.date,
    total: gross,
  };
}

export function invoicePdfBytes(inv: Invoice): Buffer {
  return buildPdf(paginate(invoiceLines(inv), 32), `Invoice ${inv.number}`);
}

// ---------------------------------------------------------------------------------------------
// PNG: grayscale rendering with a 5x7 bitmap font, text also in a tEXt "Description" chunk.
// ---------------------------------------------------------------------------------------------

/** 5x7 glyphs, one byte per row, bit 4 = leftmost pixel. Lower case is drawn as upper case. */
const FONT: Record<string, number[]> = {
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  A: [0x0e, 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11],
  B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e],
  D: [0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f],
  F: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f],
  H: [0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  J: [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  K: [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
  L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  M: [0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11],
  N: [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  Q: [0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d],
  R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  V: [0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04],
  W: [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a],
  X: [0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11],
  Y: [0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04],
  Z: [0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f],
  ':': [0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00],
  '.': [0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c],
  ',': [0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08],
  '-': [0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00],
  '&': [0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d],
  '(': [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
  ')': [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
  '/': [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00],
  '@': [0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e],
  "'": [0x0c, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00],
  '%': [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
};

export class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(255);
  }
  rect(x: number, y: number, w: number, h: number, shade: number): void {
    for (let j = Math.max(0, y); j < Math.min(this.height, y + h); j++)
      this.pixels.fill(shade, j * this.width + Math.max(0, x), j * this.width + Math.min(this.width, x + w));
  }
  /** Draws text at pixel scale `scale` (5x7 glyph -> 5s x 7s), advancing 6s per character. */
  text(x: number, y: number, s: string, scale: number, shade = 20): void {
    let cx = x;
    for (const ch of s.toUpperCase()) {
      const rows = FONT[ch];
      if (rows) {
        rows.forEach((bits, r) => {
          for (let c = 0; c < 5; c++) if (bits & (0x10 >> c)) this.rect(cx + c * scale, y + r * scale, scale, scale, shade);
        });
      }
      cx += 6 * scale;
    }
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit grayscale PNG with tEXt chunks (keyword -> Latin-1 text) before the image data. */
export function buildPng(canvas: Canvas, text: Record<string, string>): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(canvas.width, 0);
  ihdr.writeUInt32BE(canvas.height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // grayscale
  const raw = Buffer.alloc((canvas.width + 1) * canvas.height); // filter byte 0 before each row
  for (let y = 0; y < canvas.height; y++) raw.set(canvas.pixels.subarray(y * canvas.width, (y + 1) * canvas.width), y * (canvas.width + 1) + 1);
  const texts = Object.entries(text).map(([k, v]) => pngChunk('tEXt', Buffer.from(`${k}\0${v}`, 'latin1')));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...texts,
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Reads the tEXt chunks of a PNG, checking every chunk's CRC; throws on a broken file. */
export function readPngText(png: Buffer): Record<string, string> {
  if (png.subarray(0, 8).toString('latin1') !== '\x89PNG\r\n\x1a\n') throw new Error('not a PNG signature');
  const out: Record<string, string> = {};
  let off = 8;
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.subarray(off + 4, off + 8).toString('latin1');
    const data = png.subarray(off + 8, off + 8 + len);
    if (crc32(png.subarray(off + 4, off + 8 + len)) >>> 0 !== png.readUInt32BE(off + 8 + len)) throw new Error(`bad CRC in ${type} chunk`);
    if (type === 'tEXt') {
      const nul = data.indexOf(0);
      out[data.subarray(0, nul).toString('latin1')] = data.subarray(nul + 1).toString('latin1');
    }
    off += 12 + len;
    if (type === 'IEND') break;
  }
  return out;
}

export function invoicePngBytes(inv: Invoice): Buffer {
  const canvas = new Canvas(620, 877);
  canvas.rect(0, 0, 620, 118, 225); // letterhead band: vendor, address, VAT id
  let y = 24;
  for (const line of invoiceLines(inv)) {
    const scale = (line.size ?? 11) >= 14 ? 3 : 2;
    canvas.text(28, y, line.text, scale);
    if (line.right !== undefined) canvas.text(460, y, line.right, 2);
    if (line.rule) canvas.rect(28, y + 7 * scale + 5, 564, 2, 90);
    y += 7 * scale + (scale === 3 ? 20 : 14);
  }
  return buildPng(canvas, { Title: `Invoice ${inv.number}`, Description: invoiceText(inv), Software: 'Batchdesk scripts/make-samples.ts' });
}

// ---------------------------------------------------------------------------------------------
// E-invoices: an XRechnung in UBL, one in CII, and a ZUGFeRD/Factur-X PDF with its CII embedded
// (factur-x.xml). An OCR batch reads them on this computer from the XML: no request, cost 0. The
// XML is written by the builders the e-invoice tests use (test/helpers/einvoice-files.ts), which
// pass the CEN EN 16931 rules; test/unit/importers/sample-einvoices.test.ts checks these files.
// ---------------------------------------------------------------------------------------------

export interface SampleEInvoice {
  file: string;
  syntax: 'UBL' | 'CII' | 'PDF';
  invoice: TestEInvoice;
  /** One line printed on the PDF's page (the XML is the invoice, the page only its picture). */
  printed?: string;
}

const QUILLFIELD_DE: TestEInvoice['buyer'] = {
  name: 'Quillfield Consulting GmbH',
  vatId: 'DE987654321',
  street: 'Lindenallee 3',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
};

export const EINVOICES: SampleEInvoice[] = [
  {
    file: 'xrechnung-brennholt-RE-2026-0311.xml',
    syntax: 'UBL',
    invoice: {
      number: 'RE-2026-0311',
      issueDate: '2026-10-06',
      dueDate: '2026-11-05',
      currency: 'EUR',
      seller: { name: 'Brennholt Bürobedarf GmbH', vatId: 'DE271849305', street: 'Spaldingstraße 64', city: 'Hamburg', postalCode: '20097', country: 'DE' },
      buyer: QUILLFIELD_DE,
      lines: [
        { name: 'Ordner A4, 8 cm, blau', quantity: 20, price: 249, rate: 19, category: 'S' },
        { name: 'Kopierpapier A4, 500 Blatt', quantity: 5, price: 2490, rate: 19, category: 'S' },
        { name: 'Kaffeebohnen, 1 kg', quantity: 2, price: 1899, rate: 7, category: 'S' },
      ],
    },
  },
  {
    file: 'xrechnung-kesselring-RE-2026-0412.xml',
    syntax: 'CII',
    invoice: {
      number: 'RE-2026-0412',
      issueDate: '2026-10-12',
      dueDate: '2026-10-26',
      currency: 'EUR',
      seller: {
        name: 'Kesselring Haustechnik GmbH',
        vatId: 'DE314928576',
        street: 'Landsberger Straße 155',
        city: 'München',
        postalCode: '80687',
        country: 'DE',
      },
      buyer: QUILLFIELD_DE,
      lines: [
        { name: 'Wartung Gasheizung', quantity: 1, price: 24_500, rate: 19, category: 'S' },
        { name: 'Anfahrtspauschale', quantity: 1, price: 3_900, rate: 19, category: 'S' },
      ],
    },
  },
  {
    file: 'zugferd-lindqvist-RE-2026-0520.pdf',
    syntax: 'PDF',
    printed: 'Lindqvist Moebelwerk GmbH - Rechnung RE-2026-0520 (ZUGFeRD: the invoice is the embedded factur-x.xml)',
    invoice: {
      number: 'RE-2026-0520',
      issueDate: '2026-10-20',
      dueDate: '2026-11-19',
      currency: 'EUR',
      seller: { name: 'Lindqvist Möbelwerk GmbH', vatId: 'DE193847562', street: 'Deutz-Mülheimer Straße 30', city: 'Köln', postalCode: '51063', country: 'DE' },
      buyer: QUILLFIELD_DE,
      lines: [
        { name: 'Schreibtisch höhenverstellbar', quantity: 2, price: 38_900, rate: 19, category: 'S' },
        { name: 'Rollcontainer', quantity: 2, price: 14_900, rate: 19, category: 'S' },
      ],
    },
  },
];

/** The XML of a sample e-invoice (a PDF's embedded one for the PDF). */
export function einvoiceXml(e: SampleEInvoice): string {
  return e.syntax === 'UBL' ? ublXml(e.invoice) : ciiXml(e.invoice);
}

export function einvoiceBytes(e: SampleEInvoice): Buffer {
  const xml = einvoiceXml(e);
  return e.syntax === 'PDF' ? pdfWithAttachment('factur-x.xml', xml, e.printed) : Buffer.from(xml, 'utf8');
}

// ---------------------------------------------------------------------------------------------
// Message CSVs. Numbers come from ranges reserved for fiction (UK Ofcom 020 7946 0xxx,
// Australia 0491 570 xxx, North America 555-01xx). Not Ireland's 020 910 xxxx: libphonenumber-js's
// full metadata, which the importer checks numbers with, knows no such numbers.
// ---------------------------------------------------------------------------------------------

const TEMPLATE = 'Hi {{first_name}}, your order {{order}} has shipped and should arrive within 2 working days.';

export const MESSAGES: { to: string; firstName: string; order: string }[] = [
  { to: '+442079460123', firstName: 'Olivia', order: 'A-10231' },
  { to: '+442079460456', firstName: 'Harry', order: 'A-10232' },
  { to: '+61491570006', firstName: 'Charlotte', order: 'A-10233' },
  { to: '+61491570156', firstName: 'Jack', order: 'A-10234' },
  { to: '+442079460321', firstName: 'Aoife', order: 'A-10235' },
  { to: '+12025550143', firstName: 'Ethan', order: 'A-10236' },
];

function csvCell(value: string, delimiter: string): string {
  return /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replace(/"/g, '""')}"` : value;
}

function csv(rows: string[][], delimiter: string, eol: string): string {
  return rows.map((r) => r.map((v) => csvCell(v, delimiter)).join(delimiter)).join(eol) + eol;
}

export function messagesCsv(): string {
  return csv([['to', 'text', 'first_name', 'order'], ...MESSAGES.map((m) => [m.to, TEMPLATE, m.firstName, m.order])], ',', '\n');
}

/** What importing messages-with-problems.csv must report: row number -> cause, in file order. */
export const PROBLEM_ROWS = { noPlus: 3, missingText: 4, duplicate: 5, unknownPlaceholder: 6 } as const;

/** Semicolon-delimited with a BOM and CRLF, as a German-locale spreadsheet saves it. */
export function messagesWithProblemsCsv(): string {
  const pickup = 'Hi {{first_name}}, your order {{order}} is ready for pickup.';
  const rows = [
    ['to', 'text', 'first_name', 'order'],
    ['+442079460789', pickup, 'Amelia', 'A-10301'], // row 2: good
    ['07700 900123', pickup, 'Noah', 'A-10302'], // row 3: no country code
    ['+61491570157', '', 'Mia', 'A-10303'], // row 4: missing text
    ['+442079460789', pickup, 'Amelia', 'A-10301'], // row 5: duplicates row 2
    ['+61491570006', 'Hi {{first_name}}, your voucher {{voucher_code}} expires on Friday.', 'Leo', 'A-10304'], // row 6: unknown placeholder
    ['+442079460654', 'Hello {{first_name}}; your order {{order}} is delayed by two days.\nWe are sorry for the wait.', 'Liam', 'A-10305'], // row 7: good, quoted ; and newline
    ['+12025550178', 'Hi {{first_name}}, order {{order}} was delivered today.', 'Ava', 'A-10306'], // row 8: good
  ];
  return `\ufeff${csv(rows, ';', '\r\n')}`;
}

// ---------------------------------------------------------------------------------------------
// README and the writer.
// ---------------------------------------------------------------------------------------------

function readmeInvoice(i: Invoice, folder = 'invoices'): string {
  const money = (cents: number) => `${formatAmount(cents)} ${i.currency}`;
  const language = i.lang === 'de' ? 'German labels and number format (1.234,50)' : 'English';
  const due = 'date' in i.due ? `due ${i.due.date}` : `payable within ${i.due.days} days (due ${dueDateOf(i)})`;
  const kind = [i.file.endsWith('.png') ? 'PNG image; its text is in the tEXt chunk `Description`' : null, i.items.length > 20 ? '2 pages' : null]
    .filter(Boolean)
    .join(', ');
  const wrong =
    i.grossErrorCents !== 0
      ? `\n  Its printed total is deliberately wrong: ${formatAmount(Math.abs(i.grossErrorCents))} ${i.grossErrorCents > 0 ? 'more' : 'less'} than net + VAT (${money(netCents(i) + vatCentsOf(i))}), so the invoice checks flag it for review.`
      : '';
  const what = i.kind === 'credit-note' ? 'credit note (headed "CREDIT NOTE", amounts printed positive) from ' : '';
  const vatId = i.vatIdPrinted === null ? `VAT id ${i.vatId} not printed` : `VAT id ${i.vatId}`;
  return `- \`${folder}/${i.file}\`: ${what}${i.vendor} (${vatId}), ${i.number}, issued ${i.date}, ${due}; ${language}. Net ${money(netCents(i))}, VAT ${i.vatRate}% ${money(vatCentsOf(i))}, total ${money(printedGrossCents(i))}${kind ? ` (${kind})` : ''}.${wrong}`;
}

function readmeEInvoice(e: SampleEInvoice): string {
  const t = totalsOf(e.invoice);
  const what = { UBL: 'XRechnung in UBL 2.1', CII: 'XRechnung in UN/CEFACT CII', PDF: 'ZUGFeRD/Factur-X PDF with its CII embedded as `factur-x.xml`' }[
    e.syntax
  ];
  const rates = t.rows.map((r) => `${r.rate}% ${formatAmount(r.vat)}`).join(', ');
  return `- \`e-invoices/${e.file}\`: ${what}. ${e.invoice.seller.name} (VAT id ${e.invoice.seller.vatId ?? ''}), ${e.invoice.number}, issued ${e.invoice.issueDate}, due ${e.invoice.dueDate ?? ''}; ${e.invoice.lines.length} lines. Net ${formatAmount(t.net)} ${e.invoice.currency}, VAT ${rates}, total ${formatAmount(t.gross)} ${e.invoice.currency}.`;
}

function readmeRecording(r: Recording, folder: string): string {
  return `- \`${folder}/${r.file}\`: ${r.title}, ${r.seconds} s. Transcript (in the WAV's LIST/INFO \`ICMT\` chunk):\n\n  > ${transcriptOf(r).split('\n').join('  \n  > ')}\n`;
}

function readme(): string {
  const rec = RECORDINGS.map((r) => readmeRecording(r, 'recordings')).join('\n');
  const inv = [...INVOICES, PNG_INVOICE].map((i) => readmeInvoice(i)).join('\n');
  return `# Sample inputs

Generated by \`scripts/make-samples.ts\` (\`npx tsx scripts/make-samples.ts\`); do not edit by hand.
Every run writes the same bytes. All companies, people, orders and phone numbers are fictional;
the numbers come from ranges reserved for drama and testing (UK 020 7946 0xxx, Australia
0491 570 xxx, North America 555-01xx).

## recordings/ (transcription)

Synthetic call recordings: 8 kHz, 16-bit mono PCM WAV, tones shaped like speech (two voices
taking turns). The bundled sandbox returns the \`ICMT\` transcript as the transcription.

${rec}
## invoices/ (OCR)

Hand-built PDFs (uncompressed Helvetica text, so the text is readable in the file) and one PNG.
The vendor is on the first line, then its VAT id, the invoice number, issue date, due date (or
payment terms), the buyer, one line per item (\`2 x Description @ unit price\`, the line's amount on
the right), net, VAT and the total. Net is the sum of the line amounts and VAT is net x rate,
rounded half up to the cent; the sandbox's OCR answers these as \`fields\` (API assumption A8).
Company names, addresses and VAT ids are fictional.

${inv}

## e-invoices/ (OCR, read on this computer)

E-invoices as German businesses receive them since 2025, made by the builders the e-invoice tests
use and valid against the CEN EN 16931 rules. In an OCR batch they make no request and cost
nothing: the invoice is read from its XML ("read from the e-invoice"), with the same fields, line
items, checks and exports as a scanned one. Add the folder to a batch beside the scans
(\`batchdesk batch create ocr resources/samples/invoices resources/samples/e-invoices\`): its
estimate counts them at 0.

${EINVOICES.map(readmeEInvoice).join('\n')}

## invoices-november/ (OCR: the next month, suppliers already seen)

The next month's post from two suppliers of \`invoices/\`, laid out as those are. Read \`invoices/\`
first and accept Marlowe's invoice INV-2026-0088 in review (\`batchdesk review JOB --set
gross=769.20 --accept\`, or Accept in the job dialog), then make a second batch of this folder:

- The credit note is read as one (\`document_type\` "credit-note" in the OCR answer) and exported
  as a UBL \`CreditNote\` of type 381 with positive amounts, which passes the CEN EN 16931 rules.
- Marlowe's new invoice prints no VAT number, so its UBL lacks the seller's VAT id (listed in
  \`en16931-report.csv\`). Its review offers the VAT number your review of INV-2026-0088 taught
  ("from your review of job N"); applied, the invoice passes the CEN rules. Its duplicate check
  compares it with every earlier batch: the same supplier, another number, so not seen before.

${NOVEMBER_INVOICES.map((i) => readmeInvoice(i, 'invoices-november')).join('\n')}

## recordings-personal-data/ (transcription, redaction)

A call in which the caller gives a name, a phone number (said digit by digit) and an IBAN, made as
the recordings above are. The sandbox's transcript of it is its \`ICMT\` script, the recording's own
words (not made up), so redaction has something to find: with \`--redact all\`
(\`batchdesk batch create transcribe resources/samples/recordings-personal-data --then text:summary
--redact all\`) the next step gets \`[PHONE]\` and \`[IBAN]\` in their place; the name stays, as
redaction does not look for names (docs/privacy.md lists what it does not find). The phone number
is in the UK's drama range and the IBAN is the ECBS's published example: no one's.

${readmeRecording(PERSONAL_RECORDING, 'recordings-personal-data')}
## messages.csv (messaging, voice)

Comma-delimited, columns \`to,text,first_name,order\`; \`{{first_name}}\` and \`{{order}}\` in the
text are filled from the columns of the same name. ${MESSAGES.length} rows, all valid.

## messages-with-problems.csv

Semicolon-delimited, UTF-8 with a BOM and CRLF line ends (as a spreadsheet in a German locale
saves it). Three good rows (one with a quoted line break) and one of each problem the importer
reports: row ${PROBLEM_ROWS.noPlus} a number without +country code, row ${PROBLEM_ROWS.missingText} an empty text, row ${PROBLEM_ROWS.duplicate} a duplicate of
row 2, row ${PROBLEM_ROWS.unknownPlaceholder} a placeholder (\`{{voucher_code}}\`) naming no column.
`;
}

/** Every sample file stays under this many bytes (they are committed and shipped with the app). */
export const MAX_SAMPLE_BYTES = 200_000;

/** Throws when a generated sample is not what the importers and the sandbox expect. */
function verify(files: Map<string, Buffer>): void {
  const recordings = [
    ...RECORDINGS.map((r) => ({ r, rel: `recordings/${r.file}` })),
    { r: PERSONAL_RECORDING, rel: `recordings-personal-data/${PERSONAL_RECORDING.file}` },
  ];
  for (const { r, rel } of recordings) {
    const wav = files.get(rel) ?? Buffer.alloc(0);
    const seconds = wavDurationSeconds(wav, wav.length);
    if (seconds === null || seconds < 3 || seconds > 12) throw new Error(`${r.file}: duration ${seconds} s is not a valid 3-12 s WAV`);
  }
  // Samples are committed and shipped: each stays small.
  for (const [rel, bytes] of files) if (bytes.length >= MAX_SAMPLE_BYTES) throw new Error(`${rel}: ${bytes.length} bytes, not under ${MAX_SAMPLE_BYTES}`);
  const pdfs = [
    ...INVOICES.map((inv) => ({ inv, rel: `invoices/${inv.file}` })),
    ...NOVEMBER_INVOICES.map((inv) => ({ inv, rel: `invoices-november/${inv.file}` })),
  ];
  for (const { inv, rel } of pdfs) {
    const pdf = files.get(rel) ?? Buffer.alloc(0);
    const errors = checkPdfXref(pdf);
    if (errors.length > 0) throw new Error(`${inv.file}: ${errors.join('; ')}`);
    const counter = new PdfPageCounter();
    counter.push(pdf);
    const pages = counter.finish();
    if (pages !== (inv.items.length > 20 ? 2 : 1)) throw new Error(`${inv.file}: ${pages} pages`);
  }
  for (const inv of [...INVOICES, PNG_INVOICE, ...NOVEMBER_INVOICES]) {
    const got = invoiceFields(invoiceText(inv));
    const want = expectedFields(inv);
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Error(`${inv.file}: the sandbox reads ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  for (const e of EINVOICES) {
    const bytes = files.get(`e-invoices/${e.file}`) ?? Buffer.alloc(0);
    if (e.syntax === 'PDF') {
      const errors = checkPdfXref(bytes);
      if (errors.length > 0) throw new Error(`${e.file}: ${errors.join('; ')}`);
    }
    const read = readEInvoiceXml(Buffer.from(einvoiceXml(e), 'utf8'));
    if (read.kind !== 'einvoice' || read.invoice.invoiceNumber !== e.invoice.number || read.invoice.gross !== totalsOf(e.invoice).gross * 100)
      throw new Error(`${e.file}: the e-invoice reader gives ${JSON.stringify(read).slice(0, 300)}`);
  }
  for (const m of [...MESSAGES.map((x) => x.to), '+442079460789', '+61491570157', '+442079460654', '+12025550178']) {
    if (parsePhoneNumberFromString(m)?.isValid() !== true) throw new Error(`${m} is not a valid number for libphonenumber-js (max metadata)`);
  }
}

/** Every sample file: relative path -> bytes. */
export function buildSamples(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  RECORDINGS.forEach((r, i) => files.set(`recordings/${r.file}`, recordingBytes(r, i)));
  for (const inv of INVOICES) files.set(`invoices/${inv.file}`, invoicePdfBytes(inv));
  files.set(`invoices/${PNG_INVOICE.file}`, invoicePngBytes(PNG_INVOICE));
  for (const inv of NOVEMBER_INVOICES) files.set(`invoices-november/${inv.file}`, invoicePdfBytes(inv));
  files.set(`recordings-personal-data/${PERSONAL_RECORDING.file}`, recordingBytes(PERSONAL_RECORDING, RECORDINGS.length));
  for (const e of EINVOICES) files.set(`e-invoices/${e.file}`, einvoiceBytes(e));
  files.set('messages.csv', Buffer.from(messagesCsv(), 'utf8'));
  files.set('messages-with-problems.csv', Buffer.from(messagesWithProblemsCsv(), 'utf8'));
  files.set('README.md', Buffer.from(readme(), 'utf8'));
  verify(files);
  return files;
}

export function writeSamples(outDir: string): string[] {
  const written: string[] = [];
  for (const [rel, bytes] of buildSamples()) {
    const path = join(outDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    written.push(path);
  }
  return written;
}

export const DEFAULT_SAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'samples');

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = resolve(process.argv[2] ?? DEFAULT_SAMPLES_DIR);
  for (const path of writeSamples(outDir)) console.log(`wrote ${path}`);
}
