// Varied invoice texts for the invoice reader's tests: vendors of seven countries, English and
// German, 1 to n pages, derived from a hash so each is the same every time. Test data only: the
// sandbox reads a document's own text and refuses a scan without one (docs/api-assumptions.md A21).
import { byteStream } from '../../src/sandbox/results';

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
  {
    name: 'Acme Supplies S.L.',
    address: 'Calle Mayor 12, 28013 Madrid, Spain',
    vatLabel: 'VAT ID',
    vatId: 'ES B86421937',
    rate: 21,
    currency: 'EUR',
    lang: 'en',
  },
  {
    name: 'Nordwind Logistik GmbH',
    address: 'Speicherstraße 8, 20457 Hamburg',
    vatLabel: 'USt-IdNr.',
    vatId: 'DE 271 845 396',
    rate: 19,
    currency: 'EUR',
    lang: 'de',
  },
  {
    name: 'Atelier Dubois SARL',
    address: '14 rue des Tanneurs, 69002 Lyon, France',
    vatLabel: 'VAT number',
    vatId: 'FR 47 823614905',
    rate: 20,
    currency: 'EUR',
    lang: 'en',
  },
  {
    name: 'Blue Harbor Trading Ltd',
    address: '3 Quay Street, Bristol BS1 4DB, United Kingdom',
    vatLabel: 'VAT Reg No',
    vatId: 'GB 402 7731 58',
    rate: 20,
    currency: 'GBP',
    lang: 'en',
  },
  {
    name: 'Verdi Forniture S.r.l.',
    address: 'Via Roma 45, 10121 Torino, Italy',
    vatLabel: 'VAT ID',
    vatId: 'IT04829170362',
    rate: 22,
    currency: 'EUR',
    lang: 'en',
  },
  {
    name: 'Fjordvik Kontor AS',
    address: 'Strandkaien 9, 5013 Bergen, Norway',
    vatLabel: 'Org.nr / VAT',
    vatId: 'NO 918274635 MVA',
    rate: 25,
    currency: 'NOK',
    lang: 'en',
  },
  {
    name: 'Alpenblick Büroservice GmbH',
    address: 'Mariahilfer Straße 101, 1060 Wien, Österreich',
    vatLabel: 'UID-Nr.',
    vatId: 'ATU63918427',
    rate: 20,
    currency: 'EUR',
    lang: 'de',
  },
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
    ? [
        v.name,
        v.address,
        `${v.vatLabel}: ${v.vatId}`,
        '',
        'RECHNUNG',
        `Rechnungsnummer: ${number}`,
        `Rechnungsdatum: ${fmt(issued)}`,
        ...(explicitDue ? [`Zahlbar bis: ${fmt(due)}`] : []),
        `Rechnungsempfänger: ${buyer}`,
        '',
        'Beschreibung  Betrag',
      ]
    : [
        v.name,
        v.address,
        `${v.vatLabel}: ${v.vatId}`,
        '',
        'INVOICE',
        `Invoice number: ${number}`,
        `Invoice date: ${fmt(issued)}`,
        ...(explicitDue ? [`Due date: ${fmt(due)}`] : []),
        `Bill to: ${buyer}`,
        '',
        'Description  Amount',
      ];
  const foot = de
    ? [
        `Nettobetrag:  ${money(net, 'de')} ${v.currency}`,
        `USt. ${String(v.rate).replace('.', ',')} %:  ${money(vat, 'de')} ${v.currency}`,
        `Gesamtbetrag:  ${money(net + vat, 'de')} ${v.currency}`,
        '',
        explicitDue ? 'Vielen Dank für Ihren Auftrag.' : `Zahlbar innerhalb von ${termDays} Tagen ohne Abzug.`,
      ]
    : [
        `Net amount:  ${money(net, 'en')} ${v.currency}`,
        `VAT ${v.rate}%:  ${money(vat, 'en')} ${v.currency}`,
        `Total:  ${money(net + vat, 'en')} ${v.currency}`,
        '',
        explicitDue ? 'Thank you for your business.' : `Payable within ${termDays} days.`,
      ];
  return body.map((lines, i) => {
    const top = i === 0 ? head : [de ? `${v.name} (Fortsetzung, Seite ${i + 1})` : `${v.name} (continued, page ${i + 1})`, ''];
    return [...top, ...lines, ...(i === pages - 1 ? ['', ...foot] : [])].join('\n');
  });
}

/** Page `page` of the pseudo invoice of `pages` pages (by default, a one-page invoice ending on it). */
export function pseudoInvoicePage(contentSha256: string, page: number, pages = page): string {
  return pseudoInvoicePages(contentSha256, Math.max(page, pages))[page - 1] ?? '';
}
