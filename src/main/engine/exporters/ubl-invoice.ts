// One OCR-read invoice as a UBL 2.1 document: an Invoice (380), or a CreditNote (381, amounts
// positive) for a document headed as one or printed with negative totals. It is declared EN 16931
// (urn:cen.eu:en16931:2017) only when every mandatory business term was read and its sums agree as
// the CEN rules recompute them; otherwise the CustomizationID is left out and `missing` (also
// written as notes, and listed in the export's en16931-report.csv) names each term it lacks. VAT
// categories come from vat-breakdown.ts. The document holds what was read and nothing invented: a
// value that was not read is left out where UBL allows it, computed from the other totals where they
// exist (and an XML comment says so), and only where UBL requires an element that cannot be
// computed is a placeholder written, again with a comment. Element order follows the UBL 2.1
// schema sequences exactly: test/unit/exporters/ubl-invoice.test.ts validates against a schema
// subset that keeps them (test/fixtures/ubl-2.1), and en16931-rules.test.ts runs CEN's published
// EN 16931 rules (test/vendor/en16931). Amounts are written with two decimals.
import type { Invoice } from '../../../shared/invoices/invoice';
import { AMOUNT_SCALE, formatAmount, type InvoiceCheck } from '../../../shared/invoices/invoice';
import { lineNet, roundToCent, vatBreakdown, type VatRow } from '../../../shared/invoices/vat-breakdown';
import { countryOfVatId } from '../../../shared/invoices/vat-rates';

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const NS_CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const NS_CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017';
/** UNCL 1001: commercial invoice. */
const INVOICE_TYPE_CODE = '380';
/** UNCL 1001: credit note. */
const CREDIT_NOTE_TYPE_CODE = '381';
/** UN/ECE Recommendation 20: "one" (a unit without a dimension). */
const UNIT_CODE = 'C62';
const OCR_NOTE = 'Read by OCR with Batchdesk: the values are as read from the document.';
const EINVOICE_NOTE = "Read by Batchdesk from the e-invoice's XML: the values are as the e-invoice states them.";
const OCR_CORRECTED_NOTE = 'Read by OCR with Batchdesk: the values are as read from the document, corrected in review where marked.';
const EINVOICE_CORRECTED_NOTE = "Read by Batchdesk from the e-invoice's XML: the values are as the e-invoice states them, corrected in review where marked.";
const MADE_UP_NOTE = 'MADE UP by the built-in sandbox, not read from the document: do not book or pay. Configure the real API and read the document again.';
const NO_LINES_NAME = 'Invoice total as read (no line items found)';

export interface UblFallback {
  /** Used as cbc:ID when no invoice number was read. */
  id: string;
  /** YYYY-MM-DD, used when no (valid) issue date was read. */
  issueDate: string;
  /** ISO 4217, used when no currency was read. */
  currency: string;
  /** Batchdesk's checks of the invoice (null: not checked): failed ones become notes a bookkeeper sees. */
  checks?: readonly InvoiceCheck[] | null;
  /** The API made the invoice up (the built-in sandbox, A21): the first note says so. */
  madeUp?: boolean;
  /** Read from an e-invoice's XML, not by OCR: the note says so. */
  fromEInvoice?: boolean;
  /** A reviewer's decision on the invoice (invoices/invoice-decisions.ts): a note says who decided what, and when. */
  review?: { decision: string; by: string | null; at: number | null } | null;
  /** The fields the review corrected (by the names `--set` takes): the notes say the values are no longer all as read. */
  corrected?: readonly string[];
}

// XML 1.0 allows only these characters (the Char production); anything else is dropped.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

/** Text (or an attribute value) as XML: escaped, and without characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"'\r]/g, (c) => ESCAPES[c] ?? '');
}

/** A value meant for one line (a name, a number): whitespace runs collapsed, trimmed; '' when empty. */
function oneLine(text: string | null | undefined): string {
  return (text ?? '').replace(NOT_XML_CHAR, '').replace(/\s+/g, ' ').trim();
}

/** YYYY-MM-DD of a real calendar day (what xsd:date accepts without a time zone). */
function isIsoDate(text: string | null | undefined): text is string {
  if (text == null || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A plain decimal for xsd:decimal (no exponent), up to four places, trailing zeros dropped. */
function decimal(n: number): string {
  const fixed = n.toFixed(4).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

const comment = (text: string): string => `<!-- ${text.replace(/--+/g, '-')} -->`;
const leaf = (tag: string, text: string, attrs = ''): string => `<${tag}${attrs}>${xmlEscape(text)}</${tag}>`;
const wrap = (tag: string, inner: readonly string[]): string[] => [`<${tag}>`, ...inner.map((l) => `  ${l}`), `</${tag}>`];

interface Totals {
  net: number | null;
  gross: number | null;
  vat: number | null;
  netComputed: boolean;
  grossComputed: boolean;
  /** How `vat` was found when it is not the sum of the VAT lines as read. */
  vatNote: string | null;
}

function totals(inv: Invoice, rows: readonly VatRow[]): Totals {
  let vat: number | null = null;
  let vatNote: string | null = null;
  if (rows.length > 0 && rows.every((r) => r.amount !== null)) {
    vat = rows.reduce((sum, r) => sum + (r.amount ?? 0), 0);
  } else if (inv.net !== null && inv.gross !== null) {
    vat = inv.gross - inv.net;
    vatNote =
      rows.length > 0 ? 'VAT total computed as gross - net: not every VAT amount was read' : 'VAT total computed as gross - net: no VAT lines were read';
  }
  const net = inv.net ?? (inv.gross !== null && vat !== null ? inv.gross - vat : null);
  const gross = inv.gross ?? (inv.net !== null && vat !== null ? inv.net + vat : null);
  return { net, gross, vat, netComputed: inv.net === null && net !== null, grossComputed: inv.gross === null && gross !== null, vatNote };
}

/** The document as a credit note with positive amounts: negative totals are turned round, everything with them. */
function creditNoteOf(inv: Invoice): { kind: 'Invoice' | 'CreditNote'; inv: Invoice } {
  const total = inv.gross ?? inv.net;
  const negative = total !== null && total < 0;
  if (!negative) return { kind: inv.documentType === 'credit-note' ? 'CreditNote' : 'Invoice', inv };
  const neg = (a: number | null): number | null => (a === null ? null : -a);
  return {
    kind: 'CreditNote',
    inv: {
      ...inv,
      net: neg(inv.net),
      gross: neg(inv.gross),
      vat: inv.vat.map((v) => ({ ...v, amount: neg(v.amount) })),
      lines: inv.lines.map((l) => ({
        ...l,
        amount: neg(l.amount),
        unitPrice: l.unitPrice !== null && l.unitPrice < 0 ? -l.unitPrice : l.unitPrice,
        quantity: l.unitPrice !== null && l.unitPrice >= 0 && l.quantity !== null ? -l.quantity : l.quantity,
      })),
    },
  };
}

/** One UBL document and whether it is EN 16931's: `missing` names each business term or rule it lacks. */
/**
 * What the bookkeeper reads of Batchdesk's checks and the review: a decision replaces the warning
 * (an accepted invoice names the checks it was accepted despite; a rejected one says not to pay),
 * so the file never says both "needs review" and "reviewed".
 */
function reviewNotes(failed: readonly InvoiceCheck[], checks: readonly InvoiceCheck[] | null, review: UblFallback['review']): string[] {
  const notes: string[] = [];
  const who = review ? `${review.by ?? 'a reviewer'}${review.at === null ? '' : ` on ${new Date(review.at).toISOString().slice(0, 10)}`}` : '';
  if (review?.decision === 'rejected') {
    notes.push(`REJECTED in review by ${who}: do not book or pay.`);
    for (const c of failed) notes.push(`${c.check}: ${c.detail}`);
    return notes;
  }
  if (review) {
    if (failed.length === 0) {
      if (checks) notes.push(PASSED_NOTE);
      notes.push(`Reviewed in Batchdesk and accepted by ${who}.`);
    } else {
      notes.push(`Reviewed in Batchdesk and accepted by ${who}, despite ${failed.length} failed check(s) of Batchdesk's, named below.`);
      for (const c of failed) notes.push(`Accepted despite ${c.check}: ${c.detail}`);
    }
    return notes;
  }
  if (checks) {
    notes.push(failed.length === 0 ? PASSED_NOTE : `NEEDS REVIEW: ${failed.length} of Batchdesk's checks failed. Do not book or pay before checking.`);
    for (const c of failed) notes.push(`${c.check}: ${c.detail}`);
  }
  return notes;
}

const PASSED_NOTE = "Batchdesk's checks passed (line items, totals, VAT rate, due date, duplicates).";

export interface UblDocument {
  xml: string;
  kind: 'Invoice' | 'CreditNote';
  /** True when declared urn:cen.eu:en16931:2017: every mandatory term read and the sums agree. */
  en16931: boolean;
  /** "BT-44 Buyer name: not read", ...; empty when en16931. */
  missing: string[];
}

/** UBL 2.1 Invoice XML for one OCR-read invoice; `fallback` fills the mandatory fields that were not read. */
export function ublInvoiceXml(inv: Invoice, fallback: UblFallback): string {
  return ublDocument(inv, fallback).xml;
}

const ADDRESS_PARTS = (a: Invoice['buyerAddress'], country: string): string[] => {
  const out: string[] = [];
  if (oneLine(a?.street) !== '') out.push(leaf('cbc:StreetName', oneLine(a?.street)));
  if (oneLine(a?.city) !== '') out.push(leaf('cbc:CityName', oneLine(a?.city)));
  if (oneLine(a?.postalCode) !== '') out.push(leaf('cbc:PostalZone', oneLine(a?.postalCode)));
  if (country !== '') out.push(...wrap('cac:Country', [leaf('cbc:IdentificationCode', country)]));
  return out;
};

const isCountry = (c: string | null | undefined): c is string => c != null && /^[A-Z]{2}$/.test(c);

/**
 * UBL 2.1 Invoice, or CreditNote (type 381, positive amounts) for a document headed as one or
 * with negative totals. Declared EN 16931 only when its mandatory terms were all read and its sums
 * agree as the CEN rules require; otherwise written as plain UBL 2.1, and `missing` says why.
 */
export function ublDocument(read: Invoice, fallback: UblFallback): UblDocument {
  const { kind, inv } = creditNoteOf(read);
  const credit = kind === 'CreditNote';
  const missing: string[] = [];
  const lack = (term: string, why = 'not read from the document'): void => {
    missing.push(`${term}: ${why}`);
  };
  const currency = oneLine(inv.currency).toUpperCase() || oneLine(fallback.currency).toUpperCase();
  const cur = ` currencyID="${xmlEscape(currency)}"`;
  const amount = (tag: string, units: number): string => `<${tag}${cur}>${formatAmount(units)}</${tag}>`;

  const breakdown = vatBreakdown(inv);
  const rows = breakdown.rows;
  const t = totals(inv, rows);
  const out: string[] = [];

  if (oneLine(inv.invoiceNumber) === '') lack('BT-1 Invoice number');
  if (!isIsoDate(inv.issueDate)) lack('BT-2 Invoice issue date');
  if (oneLine(inv.currency) === '') lack('BT-5 Invoice currency code');
  const vendor = oneLine(inv.vendor);
  const vatId = oneLine(inv.vendorVatId).toUpperCase();
  const sellerCountry = [oneLine(inv.sellerAddress?.country).toUpperCase(), oneLine(inv.country).toUpperCase()].find(isCountry) ?? '';
  const buyer = oneLine(inv.buyer);
  const buyerVatId = oneLine(inv.buyerVatId).toUpperCase();
  const buyerCountry = [oneLine(inv.buyerAddress?.country).toUpperCase(), countryOfVatId(buyerVatId || null) ?? ''].find(isCountry) ?? '';
  if (vendor === '') lack('BT-27 Seller name');
  if (sellerCountry === '') lack('BT-40 Seller country code', 'not read (nor a VAT id that names it)');
  if (buyer === '') lack('BT-44 Buyer name');
  if (buyerCountry === '') lack('BT-55 Buyer country code', 'the buyer address read names no country');
  const categories = new Set(rows.map((r) => r.category));
  const outside = categories.has('O');
  if (!outside && vatId === '' && rows.length > 0)
    lack('BT-31 Seller VAT identifier', `needed for VAT category ${[...categories].join(', ')} (BR-${[...categories][0] ?? 'S'}-02)`);
  // BR-CO-26: the seller needs an identifier; outside the scope of VAT its VAT id may not be given (BR-O-02), and no other is read.
  if (outside)
    lack(
      'BT-30 Seller legal registration identifier',
      'outside the scope of VAT the seller VAT id may not be given (BR-O-02), and no other seller identifier was read (BR-CO-26)',
    );
  if ((categories.has('AE') || categories.has('K')) && buyerVatId === '')
    lack('BT-48 Buyer VAT identifier', 'needed for a reverse charge or an intra-community supply (BR-AE-02, BR-IC-02)');
  if (categories.has('K')) {
    lack('BT-72 Actual delivery date', 'an intra-community supply needs the delivery date or the invoicing period (BR-IC-11)');
    lack('BT-80 Deliver to country code', 'an intra-community supply needs it (BR-IC-12)');
  }
  for (const r of rows)
    if (r.category !== 'S' && r.category !== 'Z' && r.exemptionReason === null && r.exemptionCode === null)
      lack('BT-120 VAT exemption reason', `category ${r.category}`);
  for (const p of breakdown.problems) missing.push(p);
  if (t.gross !== null && t.gross > 0 && !isIsoDate(inv.dueDate)) lack('BT-9 Payment due date', 'neither a due date nor payment terms were read (BR-CO-25)');
  if (inv.lines.length === 0) lack('BG-25 Invoice line', 'no line items were read');

  // Sums the CEN rules recompute: a document whose printed figures disagree is not declared.
  const nets = inv.lines.map(lineNet);
  inv.lines.forEach((l, i) => {
    const n = i + 1;
    if (nets[i] === null) lack(`BT-131 Invoice line net amount (line ${n})`);
    if (oneLine(l.description) === '') lack(`BT-153 Item name (line ${n})`);
    if (l.unitPrice === null && l.quantity !== null) lack(`BT-146 Item net price (line ${n})`);
  });
  const linesSum = nets.every((n) => n !== null) ? nets.reduce<number>((s, n) => s + (n ?? 0), 0) : null;
  if (t.net === null) lack('BT-106 Sum of invoice line net amounts', 'neither the net nor the gross and VAT were read');
  else if (linesSum !== null && inv.lines.length > 0 && linesSum !== roundToCent(t.net)) {
    missing.push(`BR-CO-10: the line items sum to ${formatAmount(linesSum)}, the net printed is ${formatAmount(t.net)}`);
  }
  if (t.gross === null) lack('BT-112 Invoice total amount with VAT');
  if (t.vat === null) lack('BT-110 Invoice total VAT amount');
  if (t.net !== null && t.gross !== null && t.vat !== null && t.net + t.vat !== t.gross) {
    missing.push(`BR-CO-15: net ${formatAmount(t.net)} + VAT ${formatAmount(t.vat)} is not the total printed, ${formatAmount(t.gross)}`);
  }
  for (const r of rows) {
    if (r.amount === null) lack(`BT-117 VAT category tax amount (${decimal(r.rate ?? 0)} %)`);
    if (r.taxable === null) lack(`BT-116 VAT category taxable amount (${decimal(r.rate ?? 0)} %)`);
    if (r.amount !== null && r.taxable !== null && r.rate !== null && !r.derived) {
      // BR-CO-17 as the CEN schematron tests it: within one currency unit of taxable x rate.
      const expected = roundToCent((r.taxable * r.rate) / 100);
      if (Math.abs(r.amount - expected) >= AMOUNT_SCALE)
        missing.push(`BR-CO-17: VAT at ${decimal(r.rate)} % is ${formatAmount(r.amount)}, ${formatAmount(expected)} expected on ${formatAmount(r.taxable)}`);
    }
  }
  const en16931 = missing.length === 0;

  out.push(leaf('cbc:UBLVersionID', '2.1'));
  if (en16931) out.push(leaf('cbc:CustomizationID', CUSTOMIZATION_ID));
  else out.push(comment(`Not declared EN 16931 (${CUSTOMIZATION_ID}): ${missing.length} business term(s) missing or inconsistent, listed in the notes`));
  out.push(leaf('cbc:ID', oneLine(inv.invoiceNumber) || oneLine(fallback.id)));
  out.push(leaf('cbc:IssueDate', isIsoDate(inv.issueDate) ? inv.issueDate : fallback.issueDate));
  if (!credit && isIsoDate(inv.dueDate)) out.push(leaf('cbc:DueDate', inv.dueDate));
  out.push(leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', credit ? CREDIT_NOTE_TYPE_CODE : INVOICE_TYPE_CODE));
  if (fallback.madeUp === true) out.push(leaf('cbc:Note', MADE_UP_NOTE));
  const corrected = fallback.corrected ?? [];
  if (corrected.length === 0) out.push(leaf('cbc:Note', fallback.fromEInvoice === true ? EINVOICE_NOTE : OCR_NOTE));
  else {
    out.push(leaf('cbc:Note', fallback.fromEInvoice === true ? EINVOICE_CORRECTED_NOTE : OCR_CORRECTED_NOTE));
    out.push(leaf('cbc:Note', `Corrected in review: ${corrected.join(', ')}.`));
  }
  if (credit && read !== inv) out.push(leaf('cbc:Note', 'Printed with negative amounts: written as a credit note with the amounts positive.'));
  const failed = (fallback.checks ?? []).filter((c) => c.ok === false);
  out.push(...reviewNotes(failed, fallback.checks ?? null, fallback.review ?? null).map((n) => leaf('cbc:Note', n)));
  for (const m of missing) out.push(leaf('cbc:Note', `Not EN 16931: ${m}`));
  // A value UBL requires but OCR did not read is filled in, and says so where the bookkeeper reads.
  if (oneLine(inv.invoiceNumber) === '') out.push(leaf('cbc:Note', `Invoice number not read: Batchdesk's item ${oneLine(fallback.id)} stands in as the ID.`));
  if (!isIsoDate(inv.issueDate)) out.push(leaf('cbc:Note', `Issue date not read: ${fallback.issueDate}, the day the document was read, stands in.`));
  if (oneLine(inv.currency) === '') out.push(leaf('cbc:Note', `Currency not read: ${currency} assumed; check the document.`));
  out.push(leaf('cbc:DocumentCurrencyCode', currency));

  // Seller: name, address, VAT id and legal name, each when read.
  const supplier: string[] = [];
  if (vendor !== '') supplier.push(...wrap('cac:PartyName', [leaf('cbc:Name', vendor)]));
  const sellerAddress = ADDRESS_PARTS(inv.sellerAddress, sellerCountry);
  if (sellerAddress.length > 0) supplier.push(...wrap('cac:PostalAddress', sellerAddress));
  // Outside the scope of VAT, the seller's VAT id is not given (BR-O-02).
  if (vatId !== '' && !outside) supplier.push(...wrap('cac:PartyTaxScheme', [leaf('cbc:CompanyID', vatId), ...wrap('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]));
  if (vendor !== '') supplier.push(...wrap('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', vendor)]));
  out.push(...wrap('cac:AccountingSupplierParty', supplier.length > 0 ? wrap('cac:Party', supplier) : [comment('Vendor not read')]));

  // Buyer: its name is its legal name (BT-44); the element is mandatory in UBL even when nothing about the buyer was read.
  const customer: string[] = [];
  if (buyer !== '') customer.push(...wrap('cac:PartyName', [leaf('cbc:Name', buyer)]));
  const buyerAddress = ADDRESS_PARTS(inv.buyerAddress, buyerCountry);
  if (buyerAddress.length > 0) customer.push(...wrap('cac:PostalAddress', buyerAddress));
  if (buyerVatId !== '' && !outside)
    customer.push(...wrap('cac:PartyTaxScheme', [leaf('cbc:CompanyID', buyerVatId), ...wrap('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]));
  if (buyer !== '') customer.push(...wrap('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', buyer)]));
  out.push(...wrap('cac:AccountingCustomerParty', customer.length > 0 ? wrap('cac:Party', customer) : [comment('Buyer not read')]));

  // A credit note's due date goes in its payment means (UBL's CreditNote has no DueDate); code 1: the means are not stated.
  if (credit && isIsoDate(inv.dueDate)) out.push(...wrap('cac:PaymentMeans', [leaf('cbc:PaymentMeansCode', '1'), leaf('cbc:PaymentDueDate', inv.dueDate)]));
  // The seller's account (BT-84), read or corrected in review: a credit transfer to it, SEPA (58) in euro, else
  // code 30. Not on a credit note: there the seller pays, and its own account is not where the money goes.
  const iban = oneLine(inv.iban).toUpperCase().replace(/\s+/g, '');
  if (!credit && iban !== '')
    out.push(
      ...wrap('cac:PaymentMeans', [
        leaf('cbc:PaymentMeansCode', currency === 'EUR' ? '58' : '30'),
        ...wrap('cac:PayeeFinancialAccount', [leaf('cbc:ID', iban)]),
      ]),
    );

  const category = (tag: string, row: VatRow, withReason: boolean): string[] =>
    wrap(tag, [
      leaf('cbc:ID', row.category),
      ...(row.rate !== null ? [leaf('cbc:Percent', decimal(row.rate))] : []),
      ...(withReason && row.exemptionCode !== null ? [leaf('cbc:TaxExemptionReasonCode', row.exemptionCode)] : []),
      ...(withReason && row.exemptionReason !== null ? [leaf('cbc:TaxExemptionReason', row.exemptionReason)] : []),
      ...wrap('cac:TaxScheme', [leaf('cbc:ID', 'VAT')]),
    ]);

  // VAT: the total and one subtotal per category and rate whose VAT amount is known.
  if (t.vat !== null) {
    const tax: string[] = [amount('cbc:TaxAmount', t.vat)];
    if (t.vatNote !== null) tax.push(comment(t.vatNote));
    let derivedSaid = false;
    for (const row of rows) {
      if (row.amount === null) {
        tax.push(comment(`VAT amount at ${decimal(row.rate ?? 0)} % not read: no subtotal for this rate`));
        continue;
      }
      if (row.derived && !derivedSaid) {
        tax.push(
          comment(
            'Several VAT rates and the line items are not attributed to them: each TaxableAmount is derived from the VAT amount and the rate (VAT / rate), rounded to the cent',
          ),
        );
        derivedSaid = true;
      }
      const sub: string[] = [];
      if (row.taxable !== null) sub.push(amount('cbc:TaxableAmount', row.taxable));
      sub.push(amount('cbc:TaxAmount', row.amount));
      sub.push(...category('cac:TaxCategory', row, true));
      tax.push(...wrap('cac:TaxSubtotal', sub));
    }
    out.push(...wrap('cac:TaxTotal', tax));
  } else {
    out.push(comment('No VAT total: the VAT amounts were not read and cannot be computed'));
  }

  // Totals: net as the line total and tax exclusive amount, gross as tax inclusive and payable.
  const money: string[] = [];
  if (t.net !== null) {
    if (t.netComputed) money.push(comment('Net computed as gross - VAT (net not read)'));
    money.push(amount('cbc:LineExtensionAmount', t.net), amount('cbc:TaxExclusiveAmount', t.net));
  }
  if (t.gross !== null) {
    if (t.grossComputed) money.push(comment('Gross computed as net + VAT (gross not read)'));
    money.push(amount('cbc:TaxInclusiveAmount', t.gross));
  } else {
    money.push(comment('Gross not read and not computable: PayableAmount is 0.00 because UBL requires it'));
  }
  money.push(amount('cbc:PayableAmount', t.gross ?? 0));
  out.push(...wrap('cac:LegalMonetaryTotal', money));

  // Lines: as read, or one line carrying the total (UBL needs at least one line).
  const lineTag = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const qtyTag = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  if (inv.lines.length > 0) {
    inv.lines.forEach((line, i) => {
      const body: string[] = [leaf('cbc:ID', String(i + 1))];
      let qty = line.quantity !== null && Number.isFinite(line.quantity) ? line.quantity : null;
      let price = line.unitPrice;
      const lineAmount = nets[i] ?? null;
      // A line of an amount alone is one unit at that price; a negative price (a discount) is a negative quantity instead (BR-27).
      if (qty === null && price === null && lineAmount !== null) {
        qty = 1;
        price = lineAmount;
        body.push(comment('Only the amount was read: one unit at that price'));
      }
      if (price !== null && price < 0) {
        price = -price;
        qty = qty === null ? null : -qty;
      }
      if (qty !== null) body.push(leaf(qtyTag, decimal(qty), ` unitCode="${UNIT_CODE}"`));
      if (line.amount === null && lineAmount !== null) body.push(comment('Line amount computed as quantity x unit price (not read)'));
      else if (lineAmount === null) body.push(comment('Line amount not read: 0.00 because UBL requires it'));
      body.push(amount('cbc:LineExtensionAmount', lineAmount ?? 0));
      const name = oneLine(line.description);
      const rowIndex = breakdown.lineRows[i];
      const row = rowIndex === null || rowIndex === undefined ? undefined : rows[rowIndex];
      const item = [...(name !== '' ? [leaf('cbc:Name', name)] : []), ...(row ? category('cac:ClassifiedTaxCategory', row, false) : [])];
      body.push(...(item.length > 0 ? wrap('cac:Item', item) : ['<cac:Item/>']));
      // A unit price may go below the cent (0.125 a sheet): written to 4 places then, not rounded.
      if (price !== null) body.push(...wrap('cac:Price', [`<cbc:PriceAmount${cur}>${formatAmount(price, price % 100 === 0 ? 2 : 4)}</cbc:PriceAmount>`]));
      out.push(...wrap(lineTag, body));
    });
  } else {
    const total = t.net ?? t.gross;
    const body: string[] = [leaf('cbc:ID', '1'), leaf(qtyTag, '1', ` unitCode="${UNIT_CODE}"`)];
    if (t.net === null) body.push(comment(total === null ? 'No total read: 0.00 because UBL requires an amount' : 'Gross amount: the net amount is not known'));
    body.push(amount('cbc:LineExtensionAmount', total ?? 0));
    const only = rows.length === 1 ? rows[0] : undefined;
    body.push(...wrap('cac:Item', [leaf('cbc:Name', NO_LINES_NAME), ...(only ? category('cac:ClassifiedTaxCategory', only, false) : [])]));
    body.push(...wrap('cac:Price', [amount('cbc:PriceAmount', total ?? 0)]));
    out.push(...wrap(lineTag, body));
  }

  const root = credit ? 'CreditNote' : 'Invoice';
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root} xmlns="${credit ? NS_CREDIT_NOTE : NS_INVOICE}" xmlns:cac="${NS_CAC}" xmlns:cbc="${NS_CBC}">`,
    ...out.map((l) => `  ${l}`),
    `</${root}>`,
    '',
  ].join('\n');
  return { xml, kind, en16931, missing };
}
