// Invoice fields read from a document's text: the `fields` of the sandbox's OCR answer (A8).
// English and German labels, either number style ("1,234.50", "1.234,50"), ISO and day-first
// dates. What the text does not say is left out: a field is present only when its label (or, for
// the vendor, the first line) was found, and nothing is computed except the due date from printed
// payment terms ("Payable within 30 days") and the issue date.
//
// It runs on every OCR request, on documents of 50 pages and more, so it reads the text once, line
// by line, trying short anchored (sticky) patterns at the start of each column of a line (the line's
// start and every run of two or more spaces). No pattern nests unbounded repetitions, and lines are
// cut at MAX_LINE characters, so the work is linear in the length of the text.

import { zeroCategoryOf } from '../shared/invoices/vat-breakdown';
import { countryCodeOf } from '../shared/invoices/vat-rates';

export interface InvoiceLineItem {
  description: string;
  quantity?: number;
  /** "289.00" */
  unit_price?: string;
  /** "578.00" */
  amount?: string;
  /** The line's VAT rate, percent, when the table has a column for it. */
  vat_rate?: number;
}

export interface InvoiceVatLine {
  /** Percent: 19, 7, 5.5, 25.5 */
  rate: number;
  /** "234.56" */
  amount: string;
}

export interface InvoiceAddressFields {
  street?: string;
  city?: string;
  postal_code?: string;
  /** As printed: "United Kingdom", "Deutschland". */
  country?: string;
}

export interface InvoiceFields {
  /** 'credit-note' when the document is headed "Credit note" / "Gutschrift" (absent for an invoice). */
  document_type?: 'credit-note';
  /** The first non-empty line. */
  vendor?: string;
  /** The vendor's address: the line under its name, when it reads as one. */
  vendor_address?: InvoiceAddressFields;
  /** "DE123456789", "GB123456789", "NO923456789MVA": as printed, spaces, dots and dashes removed, upper case. */
  vendor_vat_id?: string;
  /** The name after "Bill to:" / "Rechnungsempfänger:" / "Kunde:": up to the first comma. */
  buyer?: string;
  /** The rest of the buyer's lines after its name. */
  buyer_address?: InvoiceAddressFields;
  /** After "Customer VAT ID:" / "USt-IdNr. des Leistungsempfängers:". */
  buyer_vat_id?: string;
  invoice_number?: string;
  /** YYYY-MM-DD */
  issue_date?: string;
  /** YYYY-MM-DD: printed, or the issue date plus printed payment terms in days. */
  due_date?: string;
  /** ISO 4217, from a code or symbol next to an amount (or a "Currency:" label). */
  currency?: string;
  line_items?: InvoiceLineItem[];
  /** Amounts: a dot and exactly two decimals. */
  net?: string;
  vat?: InvoiceVatLine[];
  gross?: string;
  /** The line saying why no VAT is charged ("Reverse charge: ...", "Steuerfrei nach § 4 Nr. 14 UStG"). */
  vat_note?: string;
  /** The earlier shape's names: the same as issue_date and gross. */
  invoice_date?: string;
  total?: string;
}

/** Longer lines are read up to here (an invoice line is far shorter; this bounds the work per line). */
const MAX_LINE = 500;

const CURRENCY_CODES = [
  'EUR',
  'GBP',
  'USD',
  'CHF',
  'NOK',
  'SEK',
  'DKK',
  'ISK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'TRY',
  'JPY',
  'CNY',
  'CAD',
  'AUD',
  'NZD',
  'INR',
  'ZAR',
  'BRL',
  'MXN',
  'SGD',
  'HKD',
];
const CURRENCY_SYMBOLS: Record<string, string> = { '€': 'EUR', '£': 'GBP', $: 'USD', '¥': 'JPY' };
const CUR = `(?:[€£$¥]|(?:${CURRENCY_CODES.join('|')})(?![\\p{L}\\d]))`;

/** 1.234,50 | 1,234.50 | 1 234,50 | 1'234.50 | 1234.5 | -12.00 (thousands groups of exactly three digits). */
const AMOUNT = String.raw`(?<![\d.,])[-−]?(?:\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?)(?![.,]?\d)`;

/** What makes a number a rate, a count or a period rather than money. */
const NOT_MONEY = String.raw`(?:%|×|(?:x|days?|Tagen?|items?|pages?|Seiten?|pcs|Stk|Stück|units?|hours?|hrs|Std|Positionen)(?![\p{L}]))`;

/** An amount with an optional currency before or after it. */
const MONEY = `(?:(${CUR})\\s*)?(${AMOUNT})(?:\\s*(${CUR}))?(?!\\s*${NOT_MONEY})`;
const MONEY_AT = new RegExp(`\\s*${MONEY}`, 'iuy');
const MONEY_ANY = new RegExp(MONEY, 'iug');
const MONEY_ONLY = new RegExp(`^${MONEY}\\s*$`, 'iu');

/** After a label: an optional note in brackets ("(EUR)", "(brutto)"), then ":", "#", "=" or nothing. */
const LABEL_END = String.raw`(?![\p{L}])(?:\s*\(([^()]{0,24})\))?\s*(?:[:#=]\s*)?`;

function sticky(labels: string): RegExp {
  return new RegExp(`(?:${labels})${LABEL_END}`, 'iuy');
}

const VAT_ID_LABEL = sticky(
  [
    String.raw`VAT\s*Reg(?:istration)?\.?\s*(?:No\.?|Number|Nr\.?|#)?`,
    String.raw`VAT\s*ID(?:\s*No\.?)?`,
    String.raw`VAT\s*(?:number|no\.?)`,
    String.raw`USt\.?[\s-]*Id(?:ent)?\.?[\s-]*(?:Nr\.?)?`,
    String.raw`UID[\s-]*(?:Nr\.?)?`,
    String.raw`MwSt\.?[\s-]*Nr\.?`,
    String.raw`Org\.?[\s-]*nr\.?(?:\s*/\s*VAT(?:\s*(?:no\.?|number))?)?`,
    String.raw`MVA[\s-]*(?:nr\.?)?`,
  ].join('|'),
);
const BUYER_LABEL = new RegExp(
  String.raw`(?:Bill(?:ed)?\s*to|Invoice\s*to|Sold\s*to|Customer|Client|Rechnungsempfänger|Rechnungsadresse|Empfänger|Kunde)\s*(?::\s*|$)`,
  'iuy',
);
const BUYER_VAT_ID_LABEL = sticky(
  [
    String.raw`(?:Customer|Buyer|Client|Your)(?:'s)?\s*VAT\s*(?:ID|Reg(?:istration)?\.?\s*No\.?|number|no\.?)`,
    String.raw`USt\.?[\s-]*Id(?:ent)?\.?[\s-]*(?:Nr\.?)?\s*(?:des|der)\s*(?:Kunden|Leistungsempfängers|Empfängers)`,
    String.raw`Kunden[\s-]*USt\.?[\s-]*Id(?:ent)?\.?[\s-]*(?:Nr\.?)?`,
  ].join('|'),
);
/** A heading that makes the document a credit note. */
const CREDIT_NOTE_HEADING = /^(?:credit\s*note|gutschrift|rechnungskorrektur|stornorechnung|avoir)(?![\p{L}])/iu;
/** "10115 Berlin", "5003 Bergen", "F-69002 Lyon"; "Leeds LS2 7EE" (a UK postcode after the town). */
const POSTCODE_FIRST = /^(?:[A-Z]{1,2}-)?(\d{4,5}(?:-\d{3,4})?)\s+(\p{L}[\p{L} .'-]*)$/u;
const POSTCODE_LAST = /^(\p{L}[\p{L} .'-]*?)\s+([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})$/u;

/** "8 Wharf Lane", "Bristol BS1 6HU", "United Kingdom" -> the address; null when the parts read as none. */
function addressOf(parts: readonly string[]): InvoiceAddressFields | null {
  const rest = parts.map((p) => p.trim()).filter((p) => p !== '');
  const out: InvoiceAddressFields = {};
  const last = rest[rest.length - 1];
  if (last !== undefined && countryCodeOf(last) !== null && rest.length > 1) {
    out.country = last;
    rest.pop();
  }
  for (const p of rest) {
    const first = POSTCODE_FIRST.exec(p);
    const after = first ? null : POSTCODE_LAST.exec(p);
    if (first && out.postal_code === undefined) {
      out.postal_code = first[1] ?? '';
      out.city = first[2]?.trim() ?? '';
    } else if (after && out.postal_code === undefined) {
      out.city = after[1]?.trim() ?? '';
      out.postal_code = (after[2] ?? '').replace(/\s+/g, ' ');
    } else if (out.street === undefined && /\d/.test(p)) out.street = p;
    else if (out.city === undefined) out.city = p;
  }
  if (out.street === undefined && out.postal_code === undefined && out.country === undefined) return null;
  // The documented order, whatever order the parts came in.
  const keys = ['street', 'city', 'postal_code', 'country'] as const;
  return Object.fromEntries(keys.filter((k) => out[k] !== undefined).map((k) => [k, out[k]])) as InvoiceAddressFields;
}

const NUMBER_LABEL = sticky(
  [
    String.raw`Invoice\s*(?:number|num\.?|no\.?|nr\.?|#)`,
    String.raw`Inv\.?\s*(?:no\.?|#)`,
    String.raw`Rechnungs[\s-]*(?:nummer|nr\.?)`,
    String.raw`Rechnung\s*(?:Nr\.?|Nummer|#)`,
    // A credit note's own number (BT-1) under its own label.
    String.raw`Credit\s*note\s*(?:number|num\.?|no\.?|nr\.?|#)`,
    String.raw`Gutschrifts?[\s-]*(?:nummer|nr\.?|#)`,
  ].join('|'),
);
const DUE_LABEL = sticky(
  [
    String.raw`Due\s*date`,
    String.raw`Date\s*due`,
    String.raw`Payment\s*due(?:\s*date)?`,
    String.raw`Due\s*(?:by|on)`,
    String.raw`Pay\s*by`,
    String.raw`Fällig\s*(?:am|bis)`,
    String.raw`Fälligkeitsdatum`,
    String.raw`Fälligkeit`,
    String.raw`Fällig`,
    String.raw`Zahlbar\s*bis`,
    String.raw`Zahlungsziel`,
  ].join('|'),
);
const ISSUE_LABEL = sticky(
  [
    String.raw`Invoice\s*date`,
    String.raw`Date\s*of\s*(?:invoice|issue)`,
    String.raw`Issue\s*date`,
    String.raw`Issued(?:\s*on)?`,
    'Rechnungsdatum',
    'Ausstellungsdatum',
    'Datum',
    'Dated?',
  ].join('|'),
);
const CURRENCY_LABEL = sticky('Currency|Währung');
const NET_LABEL = sticky(
  [
    String.raw`Sub[\s-]*total`,
    String.raw`Total\s*(?:net|excl\.?\s*(?:VAT|tax)|excluding\s*(?:VAT|tax)|before\s*(?:VAT|tax))`,
    String.raw`Net\s*(?:amount|total|value)?`,
    String.raw`Amount\s*(?:excl\.?|excluding)\s*(?:VAT|tax)`,
    'Zwischensumme',
    'Nettobetrag',
    'Nettosumme',
    String.raw`Netto\s*(?:betrag|summe)?`,
    String.raw`Summe\s*netto`,
    String.raw`Gesamt(?:summe|betrag)?\s*netto`,
  ].join('|'),
);
/** Gross labels by rank: an explicit total beats a bare "Total", which beats "Amount due" (after a part payment, less). */
const GROSS_LABELS: RegExp[] = [
  sticky(
    [
      String.raw`Grand\s*total`,
      String.raw`Total\s*(?:incl\.?|including|inc\.?)\s*(?:VAT|tax)`,
      String.raw`Total\s*gross`,
      String.raw`Gross\s*(?:total|amount)?`,
      String.raw`Invoice\s*(?:total|amount)`,
      String.raw`Total\s*amount`,
      'Gesamtbetrag',
      'Rechnungsbetrag',
      'Rechnungssumme',
      'Bruttobetrag',
      String.raw`Brutto\s*(?:summe|betrag)?`,
      String.raw`Summe\s*brutto`,
      String.raw`Gesamt\s*brutto`,
      'Endbetrag',
      'Endsumme',
      'Gesamtsumme',
    ].join('|'),
  ),
  sticky('Total'),
  sticky(
    [
      String.raw`Total\s*(?:due|payable|to\s*pay)`,
      String.raw`Amount\s*(?:due|payable)`,
      String.raw`Balance\s*due`,
      String.raw`Zu\s*zahlen(?:der\s*Betrag)?`,
      'Zahlbetrag',
    ].join('|'),
  ),
];

const TAX_WORD = String.raw`(?:VAT|Sales\s*tax|Tax|USt\.?|MwSt\.?|Mehrwertsteuer|Umsatzsteuer|MVA|TVA|IVA|BTW|GST)`;
const RATE = String.raw`(\d{1,2}(?:[.,]\d{1,3})?)\s*%`;
/** "VAT 20%", "VAT (20 %)", "VAT (MVA) 25%", "USt. 19 %", "MwSt 7 %", "Tax @ 20%". */
const VAT_LABEL_FIRST = new RegExp(
  String.raw`(?:plus\s+|add\s+|total\s+|zzgl\.?\s*|inkl\.?\s*|incl\.?\s*)?${TAX_WORD}(?![\p{L}])(?:\s*\(\p{L}{2,5}\.?\))?[\s(@]*${RATE}\)?`,
  'iuy',
);
/** "zzgl. 19 % USt", "20% VAT", "inkl. 7 % MwSt". */
const VAT_RATE_FIRST = new RegExp(String.raw`(?:plus\s+|add\s+|zzgl\.?\s*|inkl\.?\s*|incl\.?\s*|enthaltene\s+)?${RATE}\s*${TAX_WORD}(?![\p{L}])`, 'iuy');

const TERMS: RegExp[] = [
  /\b(?:payable|due|payment(?:\s+is)?(?:\s+due)?|to\s+be\s+paid)[\s:]+(?:with)?in\s+(\d{1,3})\s+days\b/i,
  /\bpayment\s+terms?[\s:]*(?:net\s+)?(\d{1,3})\s+days\b/i,
  /\bnet\s+(\d{1,3})\s+days\b/i,
  /\b(?:zahlbar|Zahlung)\s+(?:innerhalb|binnen)\s+(?:von\s+)?(\d{1,3})\s+Tagen\b/i,
  /\bZahlungsziel[\s:]*(\d{1,3})\s+Tagen?\b/i,
  /\binnerhalb\s+von\s+(\d{1,3})\s+Tagen\s+(?:zahlbar|ohne\s+Abzug|netto)/i,
];

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  januar: 1,
  jänner: 1,
  jän: 1,
  february: 2,
  feb: 2,
  februar: 2,
  feber: 2,
  march: 3,
  mar: 3,
  märz: 3,
  maerz: 3,
  mär: 3,
  mrz: 3,
  april: 4,
  apr: 4,
  may: 5,
  mai: 5,
  june: 6,
  jun: 6,
  juni: 6,
  july: 7,
  jul: 7,
  juli: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  oktober: 10,
  okt: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
  dezember: 12,
  dez: 12,
};

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/**
 * "1.234,50" / "1,234.50" / "1 234,50" / "1234.5" / "-12" -> "1234.50"; null when it is not an
 * amount. The right-most separator is the decimal one unless exactly three digits follow it and
 * every separator is that same character ("1,234", "1.234.567" are thousands). More than
 * `decimals` decimals are rounded half up: amounts to the cent, unit prices (decimals 4, "0,125"
 * a screw) to 1/10,000, written with at least two places.
 */
export function normaliseAmount(raw: string, decimals: 2 | 4 = 2): string | null {
  let s = raw.replace(/[\s\u00a0\u202f'’]/g, '').replace(/−/g, '-');
  const negative = s.startsWith('-');
  if (negative) s = s.slice(1);
  if (!/^\d[\d.,]*$/.test(s) || !/\d$/.test(s)) return null;
  const at = Math.max(s.lastIndexOf(','), s.lastIndexOf('.'));
  const after = at < 0 ? 0 : s.length - at - 1;
  const sep = at < 0 ? '' : s[at];
  const sameSeparators = at >= 0 && !s.slice(0, at).includes(sep === ',' ? '.' : ',');
  const decimal = at >= 0 && !(after === 3 && sameSeparators && !/^0+$/.test(s.slice(0, at)));
  const whole = (decimal ? s.slice(0, at) : s).replace(/[.,]/g, '').replace(/^0+(?=\d)/, '');
  const frac = decimal ? s.slice(at + 1) : '';
  if (!/^\d+$/.test(whole) || whole.length > 13) return null;
  const scale = 10 ** decimals;
  let units = Number(whole) * scale + Number(frac.slice(0, decimals).padEnd(decimals, '0'));
  if (frac.length > decimals && Number(frac[decimals]) >= 5) units += 1;
  if (units === 0) return '0.00';
  const text = `${Math.floor(units / scale)}.${String(units % scale).padStart(decimals, '0')}`.replace(/(\.\d\d\d*?)0+$/, '$1');
  return `${negative ? '-' : ''}${text}`;
}

/** A quantity as printed ("2", "1,5", "0.25", "1.000" one thousand) as a number. */
function quantityOf(raw: string): number | null {
  const m = /^(\d+)(?:[.,](\d+))?$/.exec(raw.trim());
  if (!m) return null;
  const whole = m[1] ?? '0';
  const frac = m[2];
  if (frac === undefined) return Number(whole);
  if (frac.length === 3 && whole !== '0') return Number(whole + frac);
  return Number(`${whole}.${frac}`);
}

function currencyOf(token: string | undefined): string | undefined {
  if (!token) return undefined;
  return CURRENCY_SYMBOLS[token] ?? token.toUpperCase();
}

interface Money {
  amount: string;
  currency?: string;
}

function moneyOf(m: RegExpExecArray, decimals: 2 | 4 = 2): Money | null {
  const amount = normaliseAmount(m[2] ?? '', decimals);
  if (amount === null) return null;
  const currency = currencyOf(m[1] ?? m[3]);
  return currency ? { amount, currency } : { amount };
}

/** The amount starting at `pos` (after spaces), and where it ends. */
function moneyAt(line: string, pos: number, decimals: 2 | 4 = 2): (Money & { end: number }) | null {
  MONEY_AT.lastIndex = pos;
  const m = MONEY_AT.exec(line);
  const money = m ? moneyOf(m, decimals) : null;
  return money ? { ...money, end: MONEY_AT.lastIndex } : null;
}

/**
 * The amount of a VAT line, after its rate: the last of the amounts that follow, so a printed base
 * ("on 1,234.50") is passed over; reading stops at other words (another column's label).
 */
function vatAmount(rest: string): Money | null {
  let last: RegExpExecArray | null = null;
  let from = 0;
  MONEY_ANY.lastIndex = 0;
  for (let m = MONEY_ANY.exec(rest); m !== null; m = MONEY_ANY.exec(rest)) {
    if (/\p{L}/u.test(rest.slice(from, m.index).replace(/\b(?:on|of|from|auf|von|aus)\b/giu, ''))) break;
    last = m;
    from = m.index + m[0].length;
  }
  return last ? moneyOf(last) : null;
}

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || y > 2199 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/**
 * A date at the start of `s`: 2026-10-03, 03.10.2026, 3/10/2026 and 3-10-2026 (day first), 03.10.26,
 * "3 October 2026", "3. Oktober 2026", "October 3, 2026"; as YYYY-MM-DD, null when not a real date.
 */
export function dateAt(s: string): string | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\s?([./-])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?!\d)/.exec(s);
  if (m) return isoDate(fullYear(m[4] ?? ''), Number(m[3]), Number(m[1]));
  m = /^(\d{1,2})(?:st|nd|rd|th)?\.?\s*(\p{L}{3,9})\.?,?\s+(\d{4})(?!\d)/u.exec(s);
  if (m) {
    const month = MONTHS[(m[2] ?? '').toLowerCase()];
    return month ? isoDate(Number(m[3]), month, Number(m[1])) : null;
  }
  m = /^(\p{L}{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)/u.exec(s);
  if (m) {
    const month = MONTHS[(m[1] ?? '').toLowerCase()];
    return month ? isoDate(Number(m[3]), month, Number(m[2])) : null;
  }
  return null;
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** "DE 284 719 365", "NO 981442503 MVA", "GB318447206" -> upper case, without spaces, dots, dashes. */
function vatIdAt(s: string): string | null {
  const tokens = s.trim().split(/\s+/);
  const kept: string[] = [];
  for (const [i, raw] of tokens.entries()) {
    const t = raw.replace(/[,;]$/, '');
    const ok = /^[0-9A-Za-z.-]+$/.test(t) && (i === 0 || /\d/.test(t) || /^(?:MVA|MWST|TVA|IVA)$/i.test(t));
    if (!ok) break;
    kept.push(t);
    if (t !== raw) break;
  }
  const id = kept.join('').replace(/[.-]/g, '').toUpperCase();
  return /^[0-9A-Z]{8,18}$/.test(id) && (id.match(/\d/g) ?? []).length >= 5 ? id : null;
}

// ---------------------------------------------------------------------------------------------
// Line items
// ---------------------------------------------------------------------------------------------

const ITEM_START = /^(\d{1,6}(?:[.,]\d{1,3})?)\s*[x×]\s+/iu;

/**
 * "2 x Ergonomic office chair @ 289.00  578.00 EUR" (the samples' layout); the amount may stand
 * alone on the next line instead (a PDF's right-hand column). Returns the item and whether the
 * next line was its amount.
 */
function atItem(line: string, next: string | undefined): { item: InvoiceLineItem; currency?: string; usedNext: boolean } | null {
  const start = ITEM_START.exec(line);
  if (!start) return null;
  const at = line.lastIndexOf('@');
  if (at <= start[0].length) return null;
  const description = line.slice(start[0].length, at).trim();
  const quantity = quantityOf(start[1] ?? '');
  const unit = moneyAt(line, at + 1, 4);
  if (!unit || !/\p{L}/u.test(description) || quantity === null) return null;
  const rest = line.slice(unit.end).trim();
  let amount: Money | null = null;
  let usedNext = false;
  if (rest !== '') {
    const m = MONEY_ONLY.exec(rest);
    amount = m ? moneyOf(m) : null;
    if (!amount) return null;
  } else if (next !== undefined) {
    const m = MONEY_ONLY.exec(next);
    amount = m ? moneyOf(m) : null;
    usedNext = amount !== null;
  }
  const item: InvoiceLineItem = { description, quantity, unit_price: unit.amount };
  if (amount) item.amount = amount.amount;
  const currency = amount?.currency ?? unit.currency;
  return currency ? { item, currency, usedNext } : { item, usedNext };
}

type Role = 'description' | 'quantity' | 'unit_price' | 'amount' | 'vat_rate';

const HEADER_ROLES: Array<[Role, RegExp]> = [
  [
    'description',
    /^(?:description|item|items|article|product|service|services|details|beschreibung|bezeichnung|artikel|artikelbezeichnung|leistung|leistungsbeschreibung|produkt)$/iu,
  ],
  ['quantity', /^(?:qty\.?|quantity|units|hours|hrs\.?|pcs\.?|menge|anzahl|stunden|std\.?|stk\.?|stück)$/iu],
  ['unit_price', /^(?:unit\s*price|price|unit\s*cost|rate|price\s*per\s*unit|einzelpreis|e-preis|stückpreis|preis|ep)$/iu],
  ['amount', /^(?:amount|total|line\s*total|net\s*amount|net|betrag|gesamt|gesamtpreis|summe|netto|gp)$/iu],
  // A line's own VAT rate, which attributes it to one rate of an invoice with several.
  ['vat_rate', /^(?:(?:VAT|tax|USt\.?|MwSt\.?)\s*(?:%|rate)?|(?:USt|MwSt|Steuer)[\s.-]*satz)$/iu],
];

const COLUMNS = /\s{2,}|\t/;

/** The roles of a table header's columns ("Description  Qty  Unit price  Amount"), or null. */
function tableHeader(line: string): Array<Role | null> | null {
  const cells = line.split(COLUMNS);
  if (cells.length < 3) return null;
  const roles = cells.map((c) => {
    const name = c
      .replace(/\([^()]*\)/g, '')
      .replace(/[:.]$/, '')
      .trim();
    return HEADER_ROLES.find(([, re]) => re.test(name))?.[0] ?? null;
  });
  const has = (r: Role) => roles.filter((x) => x === r).length === 1;
  return has('description') && has('amount') && (has('quantity') || has('unit_price')) ? roles : null;
}

function tableRow(line: string, roles: Array<Role | null>): { item: InvoiceLineItem; currency?: string } | null {
  const cells = line.split(COLUMNS);
  if (cells.length !== roles.length) return null;
  const item: InvoiceLineItem = { description: '' };
  let currency: string | undefined;
  for (const [i, role] of roles.entries()) {
    const cell = (cells[i] ?? '').trim();
    if (role === 'description') item.description = cell;
    else if (role === 'quantity') {
      if (!/^\d{1,6}(?:[.,]\d{1,3})?$/.test(cell)) return null;
      const q = quantityOf(cell);
      if (q === null) return null;
      item.quantity = q;
    } else if (role === 'vat_rate') {
      const r = /^(\d{1,2}(?:[.,]\d{1,3})?)\s*%?$/.exec(cell);
      if (!r) return null;
      item.vat_rate = Number((r[1] ?? '').replace(',', '.'));
    } else if (role === 'unit_price' || role === 'amount') {
      const m = MONEY_ONLY.exec(cell);
      const money = m ? moneyOf(m, role === 'unit_price' ? 4 : 2) : null;
      if (!money) return null;
      item[role] = money.amount;
      currency ??= money.currency;
    }
  }
  if (!/\p{L}/u.test(item.description) || item.amount === undefined) return null;
  return currency ? { item, currency } : { item };
}

// ---------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------

/** Where currencies were seen, best first. */
const CURRENCY_RANK = { label: 0, gross: 1, net: 2, vat: 3, item: 4 } as const;

class Reader {
  readonly out: InvoiceFields = {};
  private readonly items: InvoiceLineItem[] = [];
  private readonly vat: InvoiceVatLine[] = [];
  private gross: { amount: string; rank: number } | null = null;
  private net: string | null = null;
  private terms: number | null = null;
  private currency: { code: string; rank: number } | null = null;
  private table: Array<Role | null> | null = null;

  constructor(private readonly lines: readonly string[]) {}

  private seeCurrency(code: string | undefined, rank: number): void {
    if (code && (this.currency === null || rank < this.currency.rank)) this.currency = { code, rank };
  }

  /** The value after a label: the rest of the line's column, or the next non-empty line when the label ends its line. */
  private valueAfter(i: number, line: string, pos: number): { text: string; line: string; pos: number } {
    if (line.slice(pos).replace(/^[\s:=#]+/, '') !== '') return { text: line.slice(pos), line, pos };
    for (let j = i + 1; j < this.lines.length; j++) {
      const next = this.lines[j] ?? '';
      if (next !== '') return { text: next, line: next, pos: 0 };
    }
    return { text: '', line, pos };
  }

  private nextNonEmpty(i: number): { line: string; index: number } | null {
    for (let j = i + 1; j < this.lines.length; j++) if ((this.lines[j] ?? '') !== '') return { line: this.lines[j] ?? '', index: j };
    return null;
  }

  read(): InvoiceFields {
    const out = this.out;
    const firstAt = this.lines.findIndex((l) => l !== '');
    const first = this.lines[firstAt];
    if (first !== undefined) {
      out.vendor = first;
      const under = this.lines[firstAt + 1] ?? '';
      const address = under.includes(',') ? addressOf(under.split(',')) : null;
      if (address && (address.postal_code !== undefined || address.country !== undefined)) out.vendor_address = address;
    }
    for (let i = 0; i < this.lines.length; i++) {
      const line = this.lines[i] ?? '';
      if (line === '') continue;
      if (out.document_type === undefined && CREDIT_NOTE_HEADING.test(line)) out.document_type = 'credit-note';
      if (out.vat_note === undefined && zeroCategoryOf(line) !== null) out.vat_note = line.slice(0, 200);
      const header = tableHeader(line);
      if (header) {
        this.table = header;
        continue;
      }
      const next = this.nextNonEmpty(i);
      const item = atItem(line, next?.line);
      if (item) {
        this.items.push(item.item);
        this.seeCurrency(item.currency, CURRENCY_RANK.item);
        if (item.usedNext && next) i = next.index;
        continue;
      }
      const labelled = this.readLabels(i, line);
      if (!labelled && this.table) {
        const row = tableRow(line, this.table);
        if (row) {
          this.items.push(row.item);
          this.seeCurrency(row.currency, CURRENCY_RANK.item);
        }
      }
      if (this.terms === null && /\d/.test(line)) {
        for (const re of TERMS) {
          const m = re.exec(line);
          if (m) {
            this.terms = Number(m[1]);
            break;
          }
        }
      }
    }
    if (out.issue_date) out.invoice_date = out.issue_date;
    if (!out.due_date && out.issue_date && this.terms !== null) out.due_date = addDays(out.issue_date, this.terms);
    if (this.currency) out.currency = this.currency.code;
    if (this.items.length > 0) out.line_items = this.items;
    if (this.net !== null) out.net = this.net;
    if (this.vat.length > 0) out.vat = this.vat;
    if (this.gross) out.gross = out.total = this.gross.amount;
    // The fields in the documented order, whatever order they were found in.
    const order: Array<keyof InvoiceFields> = [
      'document_type',
      'vendor',
      'vendor_address',
      'vendor_vat_id',
      'buyer',
      'buyer_address',
      'buyer_vat_id',
      'invoice_number',
      'issue_date',
      'due_date',
      'currency',
      'line_items',
      'net',
      'vat',
      'gross',
      'vat_note',
      'invoice_date',
      'total',
    ];
    return Object.fromEntries(order.filter((k) => out[k] !== undefined).map((k) => [k, out[k]])) as InvoiceFields;
  }

  /** Tries every label at the start of each column of line i; true when one was read. */
  private readLabels(i: number, line: string): boolean {
    let found = false;
    let pos = 0;
    const gaps = /\s{2,}|\t/g;
    for (;;) {
      if (this.readLabelAt(i, line, pos)) found = true;
      const gap = gaps.exec(line);
      if (!gap) break;
      pos = gap.index + gap[0].length;
    }
    return found;
  }

  private match(re: RegExp, line: string, pos: number): RegExpExecArray | null {
    re.lastIndex = pos;
    return re.exec(line);
  }

  /** Ends the current line-item table: a summary line was reached. */
  private summary(): true {
    this.table = null;
    return true;
  }

  private readLabelAt(i: number, line: string, pos: number): boolean {
    const out = this.out;
    const column = (s: string) => s.split(COLUMNS)[0]?.trim() ?? '';
    let m = this.match(BUYER_VAT_ID_LABEL, line, pos);
    if (m) {
      const id = vatIdAt(column(this.valueAfter(i, line, BUYER_VAT_ID_LABEL.lastIndex).text));
      if (id) {
        out.buyer_vat_id ??= id;
        return true;
      }
    }
    m = this.match(VAT_ID_LABEL, line, pos);
    if (m) {
      const id = vatIdAt(column(this.valueAfter(i, line, VAT_ID_LABEL.lastIndex).text));
      if (id) {
        out.vendor_vat_id ??= id;
        return true;
      }
    }
    m = this.match(NUMBER_LABEL, line, pos);
    if (m) {
      const v = /^\s*([A-Z0-9][A-Z0-9\-/.]*)/i.exec(this.valueAfter(i, line, NUMBER_LABEL.lastIndex).text);
      const number = v?.[1]?.replace(/[./-]+$/, '');
      if (number && /\d/.test(number)) {
        out.invoice_number ??= number;
        return true;
      }
    }
    m = this.match(DUE_LABEL, line, pos);
    if (m) {
      const date = dateAt(this.valueAfter(i, line, DUE_LABEL.lastIndex).text.trimStart());
      if (date) {
        out.due_date ??= date;
        return true;
      }
    }
    m = this.match(ISSUE_LABEL, line, pos);
    if (m) {
      const date = dateAt(this.valueAfter(i, line, ISSUE_LABEL.lastIndex).text.trimStart());
      if (date) {
        out.issue_date ??= date;
        return true;
      }
    }
    m = this.match(BUYER_LABEL, line, pos);
    if (m) {
      const parts = column(this.valueAfter(i, line, BUYER_LABEL.lastIndex).text).split(',');
      const name = parts[0]?.trim() ?? '';
      if (/\p{L}/u.test(name)) {
        if (out.buyer === undefined) {
          const address = addressOf(parts.slice(1));
          if (address) out.buyer_address = address;
        }
        out.buyer ??= name;
        return true;
      }
    }
    m = this.match(CURRENCY_LABEL, line, pos);
    if (m) {
      const code = /^\s*([A-Za-z]{3}|[€£$¥])(?![\p{L}])/u.exec(this.valueAfter(i, line, CURRENCY_LABEL.lastIndex).text)?.[1];
      if (code && (CURRENCY_SYMBOLS[code] || CURRENCY_CODES.includes(code.toUpperCase()))) {
        this.seeCurrency(currencyOf(code), CURRENCY_RANK.label);
        return true;
      }
    }
    m = this.match(NET_LABEL, line, pos);
    if (m) {
      const v = this.valueAfter(i, line, NET_LABEL.lastIndex);
      const money = moneyAt(v.line, v.pos);
      if (money) {
        this.net = money.amount; // the last one: a page's subtotal comes before the invoice's
        this.seeCurrency(money.currency ?? currencyOf(noteCurrency(m[1])), CURRENCY_RANK.net);
        return this.summary();
      }
    }
    const vatRe = [VAT_LABEL_FIRST, VAT_RATE_FIRST].find((re) => this.match(re, line, pos) !== null);
    if (vatRe) {
      m = this.match(vatRe, line, pos);
      const v = this.valueAfter(i, line, vatRe.lastIndex);
      const money = vatAmount(v.text);
      const rate = Number((m?.[1] ?? '').replace(',', '.'));
      if (money && Number.isFinite(rate)) {
        if (!this.vat.some((x) => x.rate === rate && x.amount === money.amount)) this.vat.push({ rate, amount: money.amount });
        this.seeCurrency(money.currency, CURRENCY_RANK.vat);
        return this.summary();
      }
    }
    for (const [rank, re] of GROSS_LABELS.entries()) {
      m = this.match(re, line, pos);
      if (!m) continue;
      const v = this.valueAfter(i, line, re.lastIndex);
      const money = moneyAt(v.line, v.pos);
      if (!money) continue;
      if (this.gross === null || rank <= this.gross.rank) this.gross = { amount: money.amount, rank };
      this.seeCurrency(money.currency ?? currencyOf(noteCurrency(m[1])), CURRENCY_RANK.gross);
      return this.summary();
    }
    return false;
  }
}

/** "(EUR)" after a label names the currency of its amount. */
function noteCurrency(note: string | undefined): string | undefined {
  const t = note?.trim() ?? '';
  return CURRENCY_SYMBOLS[t] || CURRENCY_CODES.includes(t.toUpperCase()) ? t : undefined;
}

/** The invoice fields found in a document's text (all pages, in order). */
export function invoiceFields(text: string): InvoiceFields {
  const lines = text.split(/\r\n|\r|\n/).map((l) =>
    l
      .slice(0, MAX_LINE)
      .replace(/[\u00a0\u202f]/g, ' ')
      .trim(),
  );
  return new Reader(lines).read();
}
