// Deterministic fake content: the same input always gives the same output, shaped like what a
// real service returns. Randomness comes only from SHA-256 of the input.
import { createHash } from 'node:crypto';
import { encodePng } from './png';
import { encodeWav } from './wav';

export function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Deterministic byte stream seeded by a string: SHA-256 in counter mode. */
function byteStream(seed: string): () => number {
  let block: Buffer = Buffer.alloc(0);
  let counter = 0;
  let i = 0;
  return () => {
    if (i >= block.length) {
      block = sha256(`${seed}\0${counter++}`);
      i = 0;
    }
    return block[i++] ?? 0;
  };
}

const CALL_CORPUS = [
  'Hello, thank you for calling, how can I help you today?',
  'I am calling about the invoice I received last week.',
  'The delivery was supposed to arrive on Tuesday but it has not come yet.',
  'Could you please confirm the order number for me?',
  'Let me check that in our system, it will only take a moment.',
  'I would like to change the delivery address to our new office.',
  'The payment was made by bank transfer on the fifteenth.',
  'We can offer you a replacement or a full refund, whichever you prefer.',
  'Please send me the updated quote by email.',
  'Our team will call you back tomorrow morning before ten.',
  'I have noted your request and opened a ticket for it.',
  'Is there anything else I can help you with?',
  'The technician will visit between two and four in the afternoon.',
  'We need a copy of the signed delivery note to process the claim.',
  'Your subscription renews automatically at the end of the month.',
  'I can confirm that the credit note has been issued.',
  'Thank you for your patience, have a nice day.',
  'The product is back in stock and ships within two working days.',
  'Could you spell your last name for me, please?',
  'We have applied the discount to your next invoice.',
];

/** A transcript picked from the call corpus by the file's hash: 3 to 6 sentences. */
export function corpusTranscript(contentSha256: string): string {
  const next = byteStream(`transcript:${contentSha256}`);
  const count = 3 + (next() % 4);
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(CALL_CORPUS[next() % CALL_CORPUS.length] ?? '');
  return out.join(' ');
}

export interface SandboxSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** "Agent: ..." / "Customer: ...": a line of a sample recording's script (scripts/make-samples.ts). */
const SCRIPT_LINE = /^(Agent|Customer):\s*(.*)$/;

/**
 * The transcript cut into timed segments over `duration` seconds. A script whose every line names
 * its speaker ("Agent: ...", "Customer: ...") gives one segment per line with that speaker; any other
 * text one segment per sentence, no speaker. Each takes a share of the duration proportional to its
 * length; times in whole milliseconds, rounded down, so the last one ends within the duration.
 */
export function transcriptSegments(text: string, duration: number): SandboxSegment[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const script = lines.length > 0 && lines.every((l) => SCRIPT_LINE.test(l));
  const parts: { text: string; speaker?: string }[] = script
    ? lines.map((l) => {
        const m = SCRIPT_LINE.exec(l);
        return { speaker: m?.[1] ?? '', text: (m?.[2] ?? '').trim() };
      })
    : text
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?\u2026])\s+/)
        .filter((t) => t !== '')
        .map((t) => ({ text: t }));
  const weights = parts.map((p) => Math.max(1, [...p.text].length));
  const total = weights.reduce((a, b) => a + b, 0);
  const at = (chars: number): number => Math.floor((Math.max(0, duration) * chars * 1000) / total) / 1000;
  let before = 0;
  return parts.map((p, i) => {
    const start = at(before);
    before += weights[i] ?? 1;
    return { start, end: at(before), text: p.text, ...(p.speaker !== undefined ? { speaker: p.speaker } : {}) };
  });
}

const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'you', 'is', 'to', 'of', 'for', 'please', 'thank', 'with'],
  es: ['el', 'la', 'que', 'de', 'los', 'por', 'gracias', 'para', 'con', 'una'],
  de: ['der', 'die', 'und', 'ist', 'nicht', 'ich', 'sie', 'das', 'mit', 'bitte'],
  fr: ['le', 'la', 'les', 'et', 'est', 'vous', 'pour', 'merci', 'une', 'avec'],
  it: ['il', 'che', 'di', 'per', 'non', 'una', 'grazie', 'sono', 'con', 'della'],
  pt: ['o', 'que', 'não', 'uma', 'para', 'com', 'obrigado', 'você', 'os', 'está'],
  nl: ['de', 'het', 'een', 'en', 'niet', 'ik', 'u', 'dank', 'voor', 'met'],
};

/** Guess of the spoken language by stop-word counts; "en" when nothing matches. */
export function detectLanguage(text: string): string {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = 'en';
  let bestScore = 0;
  for (const [lang, list] of Object.entries(STOPWORDS)) {
    const set = new Set(list);
    const score = words.filter((w) => set.has(w)).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

interface PseudoVendor {
  name: string;
  address: string;
  /** Label and id as printed; the id is fictional, of the country's format. */
  vatLabel: string;
  vatId: string;
  /** The country's standard VAT rate, percent. */
  rate: number;
  currency: string;
  lang: 'en' | 'de';
}

const PSEUDO_VENDORS: PseudoVendor[] = [
  { name: 'Acme Supplies S.L.', address: 'Calle Mayor 12, 28013 Madrid, Spain', vatLabel: 'VAT ID', vatId: 'ES B86421937', rate: 21, currency: 'EUR', lang: 'en' },
  { name: 'Nordwind Logistik GmbH', address: 'Speicherstraße 8, 20457 Hamburg', vatLabel: 'USt-IdNr.', vatId: 'DE 271 845 396', rate: 19, currency: 'EUR', lang: 'de' },
  { name: 'Atelier Dubois SARL', address: '14 rue des Tanneurs, 69002 Lyon, France', vatLabel: 'VAT number', vatId: 'FR 47 823614905', rate: 20, currency: 'EUR', lang: 'en' },
  { name: 'Blue Harbor Trading Ltd', address: '3 Quay Street, Bristol BS1 4DB, United Kingdom', vatLabel: 'VAT Reg No', vatId: 'GB 402 7731 58', rate: 20, currency: 'GBP', lang: 'en' },
  { name: 'Verdi Forniture S.r.l.', address: 'Via Roma 45, 10121 Torino, Italy', vatLabel: 'VAT ID', vatId: 'IT04829170362', rate: 22, currency: 'EUR', lang: 'en' },
  { name: 'Fjordvik Kontor AS', address: 'Strandkaien 9, 5013 Bergen, Norway', vatLabel: 'Org.nr / VAT', vatId: 'NO 918274635 MVA', rate: 25, currency: 'NOK', lang: 'en' },
  { name: 'Alpenblick Büroservice GmbH', address: 'Mariahilfer Straße 101, 1060 Wien, Österreich', vatLabel: 'UID-Nr.', vatId: 'ATU63918427', rate: 20, currency: 'EUR', lang: 'de' },
];
const ITEMS = {
  en: ['Office chairs', 'Printer toner', 'Delivery service', 'Consulting hours', 'Packaging material', 'Software licence'],
  de: ['Bürostühle', 'Druckertoner', 'Lieferservice', 'Beratungsstunden', 'Verpackungsmaterial', 'Softwarelizenz'],
};
const BUYERS = {
  en: ['Quillfield Consulting Ltd, 8 Wharf Lane, Bristol', 'Harbourline Energy Ltd, 1 Dock Road, Cardiff', 'Kestrel & Vane LLP, 40 Fleet Street, London'],
  de: ['Quillfield Consulting GmbH, Torstraße 5, 10119 Berlin', 'Harbourline Energie GmbH, Am Sandtorkai 2, 20457 Hamburg'],
};
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Cents as "1,234.50" (en) or "1.234,50" (de). */
function money(cents: number, lang: 'en' | 'de'): string {
  const [thousands, decimal] = lang === 'de' ? ['.', ','] : [',', '.'];
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${whole}${decimal}${String(cents % 100).padStart(2, '0')}`;
}

/** VAT on `netCents` at `rate` percent, rounded half up to the cent. */
export function vatCents(netCents: number, rate: number): number {
  const tenths = Math.round(rate * 10); // 5.5 % -> 55
  return Math.floor((netCents * tenths * 2 + 1000) / 2000);
}

/**
 * A plausible invoice over `pages` pages, derived from the document hash (for scans without a text
 * layer): vendor with its VAT id, number, issue and due date (or payment terms), line items in the
 * samples' layout ("2 x Printer toner @ 45.10  90.20 EUR"), net, VAT at the vendor's country's
 * standard rate and total = net + VAT, in English or German (German number format). Later pages
 * start with the vendor's name and "(continued, page N)"; the totals are on the last page.
 */
export function pseudoInvoicePages(contentSha256: string, pages: number): string[] {
  if (pages < 1) return [];
  const next = byteStream(`ocr:${contentSha256}`);
  const v = PSEUDO_VENDORS[next() % PSEUDO_VENDORS.length] ?? (PSEUDO_VENDORS[0] as PseudoVendor);
  const de = v.lang === 'de';
  const year = 2024 + (next() % 2);
  const number = `INV-${year}-${String(((next() << 8) | next()) % 10000).padStart(4, '0')}`;
  const issued = new Date(Date.UTC(year, next() % 12, 1 + (next() % 28)));
  const termDays = [14, 30][next() % 2] ?? 14;
  const due = new Date(issued.getTime() + termDays * 86_400_000);
  const dateStyle = de ? 0 : next() % 3;
  const fmt = (d: Date): string => {
    const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
    const dd = String(day).padStart(2, '0');
    const mm = String(m).padStart(2, '0');
    if (de) return `${dd}.${mm}.${y}`;
    if (dateStyle === 1) return `${day} ${MONTH_NAMES[m - 1] ?? ''} ${y}`;
    if (dateStyle === 2) return `${dd}/${mm}/${y}`;
    return `${y}-${mm}-${dd}`;
  };
  const explicitDue = next() % 2 === 0;
  const buyers = BUYERS[v.lang];
  const buyer = buyers[next() % buyers.length] ?? '';
  const items = ITEMS[v.lang];
  let net = 0;
  const body: string[][] = [];
  for (let p = 1; p <= pages; p++) {
    const lines: string[] = [];
    for (let k = 0, n = 1 + (next() % 4); k < n; k++) {
      const qty = 1 + (next() % 9);
      const unit = (500 + (((next() << 8) | next()) % 20000)) * (v.currency === 'NOK' ? 10 : 1); // kroner: about a tenth of a euro
      net += qty * unit;
      lines.push(`${qty} x ${items[next() % items.length] ?? 'Item'} @ ${money(unit, v.lang)}  ${money(qty * unit, v.lang)} ${v.currency}`);
    }
    body.push(lines);
  }
  const vat = vatCents(net, v.rate);
  const head = de
    ? [v.name, v.address, `${v.vatLabel}: ${v.vatId}`, '', 'RECHNUNG', `Rechnungsnummer: ${number}`, `Rechnungsdatum: ${fmt(issued)}`, ...(explicitDue ? [`Zahlbar bis: ${fmt(due)}`] : []), `Rechnungsempfänger: ${buyer}`, '', 'Beschreibung  Betrag']
    : [v.name, v.address, `${v.vatLabel}: ${v.vatId}`, '', 'INVOICE', `Invoice number: ${number}`, `Invoice date: ${fmt(issued)}`, ...(explicitDue ? [`Due date: ${fmt(due)}`] : []), `Bill to: ${buyer}`, '', 'Description  Amount'];
  const foot = de
    ? [`Nettobetrag:  ${money(net, 'de')} ${v.currency}`, `USt. ${String(v.rate).replace('.', ',')} %:  ${money(vat, 'de')} ${v.currency}`, `Gesamtbetrag:  ${money(net + vat, 'de')} ${v.currency}`, '', explicitDue ? 'Vielen Dank für Ihren Auftrag.' : `Zahlbar innerhalb von ${termDays} Tagen ohne Abzug.`]
    : [`Net amount:  ${money(net, 'en')} ${v.currency}`, `VAT ${v.rate}%:  ${money(vat, 'en')} ${v.currency}`, `Total:  ${money(net + vat, 'en')} ${v.currency}`, '', explicitDue ? 'Thank you for your business.' : `Payable within ${termDays} days.`];
  return body.map((lines, i) => {
    const top = i === 0 ? head : [de ? `${v.name} (Fortsetzung, Seite ${i + 1})` : `${v.name} (continued, page ${i + 1})`, ''];
    return [...top, ...lines, ...(i === pages - 1 ? ['', ...foot] : [])].join('\n');
  });
}

/** Page `page` of the pseudo invoice of `pages` pages (by default, a one-page invoice ending on it). */
export function pseudoInvoicePage(contentSha256: string, page: number, pages = page): string {
  return pseudoInvoicePages(contentSha256, Math.max(page, pages))[page - 1] ?? '';
}

export { invoiceFields, normaliseAmount, type InvoiceFields } from './invoice-extract';

/**
 * classify with the caller's labels: the first label named (or whose stem appears) in the text,
 * else the sandbox's own topic when it is one of them, else a label chosen by the text's hash.
 */
export function classifyText(input: string, labels: readonly string[] | undefined): string {
  const own = textResult(input, 'classify', 'standard');
  if (!labels || labels.length === 0) return own;
  const lower = input.toLowerCase();
  const named = labels.find((l) => lower.includes(l.toLowerCase().slice(0, Math.max(4, l.length - 2))));
  if (named) return named;
  const same = labels.find((l) => l.toLowerCase() === own);
  if (same) return same;
  return labels[sha256(`label:${input}`).readUInt16BE(0) % labels.length] ?? own;
}

/** /v1/text: a reply, summary or classification depending on `task`. */
export function textResult(input: string, task: string | undefined, tier: string): string {
  const clean = input.replace(/\s+/g, ' ').trim();
  const firstSentence = (/^[^.!?]*[.!?]?/.exec(clean)?.[0] ?? clean).slice(0, 200);
  switch ((task ?? 'reply').toLowerCase()) {
    case 'summary':
    case 'summarize':
    case 'summarise':
      return `Summary (${tier}): ${firstSentence}${clean.length > firstSentence.length ? ' [...]' : ''}`;
    case 'classify':
    case 'classification': {
      const labels: Array<[string, RegExp]> = [
        ['billing', /invoice|payment|refund|charge|price|bill/i],
        ['delivery', /deliver|shipping|shipment|parcel|arrive/i],
        ['support', /error|broken|help|problem|issue|not work/i],
        ['sales', /quote|offer|buy|order|discount/i],
      ];
      return labels.find(([, re]) => re.test(clean))?.[0] ?? 'other';
    }
    default: {
      const next = byteStream(`text:${tier}:${clean}`);
      const openers = ['Thank you for your message.', 'Thanks for getting in touch.', 'We appreciate you reaching out.'];
      const closers = ['We will get back to you shortly.', 'A colleague will follow up today.', 'Let us know if there is anything else.'];
      return `${openers[next() % openers.length] ?? ''} Regarding "${firstSentence.slice(0, 80)}": ${closers[next() % closers.length] ?? ''}`;
    }
  }
}

const TTS_RATE = 8000;

/** A short tone whose length follows the text (60 ms per character, 0.5 s to 120 s). */
export function ttsWav(text: string, voice: string): Buffer {
  const seconds = Math.min(120, Math.max(0.5, [...text].length * 0.06));
  const samples = new Int16Array(Math.round(seconds * TTS_RATE));
  const freq = 180 + (sha256(`voice:${voice}`).readUInt16BE(0) % 240);
  for (let i = 0; i < samples.length; i++) {
    // A gentle envelope per "syllable" so it sounds like speech rhythm rather than a beep.
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * i) / (TTS_RATE * 0.18));
    samples[i] = Math.round(8000 * envelope * Math.sin((2 * Math.PI * freq * i) / TTS_RATE));
  }
  return encodeWav(samples, TTS_RATE, text);
}

/** A smooth colour field seeded by the prompt, with the prompt in a tEXt Description chunk. */
export function imagePng(prompt: string, width: number, height: number): Buffer {
  const h = sha256(`image:${prompt}`);
  const [r0, g0, b0, r1, g1, b1] = [h[0] ?? 0, h[1] ?? 0, h[2] ?? 0, h[3] ?? 0, h[4] ?? 0, h[5] ?? 0];
  const waves = 1 + ((h[6] ?? 0) % 5);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / Math.max(1, width - 1) + y / Math.max(1, height - 1)) / 2;
      const s = 0.5 + 0.5 * Math.sin(2 * Math.PI * waves * (x / width) + (y / height) * Math.PI);
      const o = (y * width + x) * 3;
      rgb[o] = Math.round(r0 + (r1 - r0) * t) * 0.8 + 50 * s;
      rgb[o + 1] = Math.round(g0 + (g1 - g0) * t) * 0.8 + 50 * s;
      rgb[o + 2] = Math.round(b0 + (b1 - b0) * t) * 0.8 + 50 * s;
    }
  }
  return encodePng(width, height, rgb, { Description: prompt.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000), Software: 'batchdesk sandbox' });
}
