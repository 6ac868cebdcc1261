// One OCR-read invoice as a UBL 2.1 Invoice document (OASIS UBL 2.1, with the EN 16931
// customization ID). The document holds what was read and nothing invented: a value that was not
// read is left out where UBL allows it, computed from the other totals where they exist (and an
// XML comment says so), and only where UBL requires an element that cannot be computed is a
// placeholder written, again with a comment. Element order follows the UBL 2.1 schema sequences
// exactly; test/unit/exporters/ubl-invoice.test.ts validates the output against a schema subset
// that keeps those sequences (test/fixtures/ubl-2.1). Amounts are written with two decimals.
import type { Invoice } from '../../../shared/invoices/invoice';
import { formatAmount, type InvoiceCheck } from '../../../shared/invoices/invoice';

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const NS_CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017';
/** UNCL 1001: commercial invoice. */
const INVOICE_TYPE_CODE = '380';
/** UN/ECE Recommendation 20: "one" (a unit without a dimension). */
const UNIT_CODE = 'C62';
const OCR_NOTE = 'Read by OCR with Batchdesk: the values are as read from the document.';
const MADE_UP_NOTE = 'MADE UP by the built-in sandbox, not read from the document: do not book or pay. Configure the real API and read the document again.';
const NO_LINES_NAME = 'Invoice total as read (no line items found)';
/** 1/10,000 units in one cent. */
const CENT = 100;

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

/** 1/10,000 units rounded half away from zero to whole cents. */
function roundToCent(units: number): number {
  const rounded = Math.round(Math.abs(units) / CENT) * CENT;
  return units < 0 && rounded !== 0 ? -rounded : rounded;
}

const comment = (text: string): string => `<!-- ${text.replace(/--+/g, '-')} -->`;
const leaf = (tag: string, text: string, attrs = ''): string => `<${tag}${attrs}>${xmlEscape(text)}</${tag}>`;
const wrap = (tag: string, inner: readonly string[]): string[] => [`<${tag}>`, ...inner.map((l) => `  ${l}`), `</${tag}>`];

interface VatRow {
  rate: number;
  /** VAT at this rate, 1/10,000 units; null when neither read nor computable. */
  amount: number | null;
  /** The net amount this rate applies to; null when it cannot be computed. */
  taxable: number | null;
  /** True when `taxable` was derived from the VAT amount and the rate (several rates). */
  derived: boolean;
}

interface Totals {
  net: number | null;
  gross: number | null;
  vat: number | null;
  netComputed: boolean;
  grossComputed: boolean;
  /** How `vat` was found when it is not the sum of the VAT lines as read. */
  vatNote: string | null;
}

function vatRows(inv: Invoice): VatRow[] {
  const read = inv.vat.filter((v) => Number.isFinite(v.rate));
  const rows: VatRow[] = read.map((v) => ({
    rate: v.rate,
    amount: v.amount ?? (v.rate === 0 ? 0 : null),
    taxable: null,
    derived: false,
  }));
  const only = rows.length === 1 ? rows[0] : undefined;
  if (only !== undefined) {
    if (only.amount === null && inv.net !== null && inv.gross !== null) only.amount = inv.gross - inv.net;
    only.taxable = inv.net ?? (inv.gross !== null && only.amount !== null ? inv.gross - only.amount : null);
    return rows;
  }
  // Several rates: the line items carry no rate, so the net cannot be split by attribution.
  // Each rate's base is derived from its VAT amount instead (VAT / rate), rounded to the cent.
  for (const row of rows) {
    if (row.rate > 0 && row.amount !== null) {
      row.taxable = roundToCent((row.amount * 100) / row.rate);
      row.derived = true;
    }
  }
  // A single 0 % rate gets what is left of the net, when everything else is known.
  const zero = rows.filter((r) => r.rate === 0);
  const zeroRow = zero.length === 1 ? zero[0] : undefined;
  if (zeroRow !== undefined && inv.net !== null && rows.every((r) => r === zeroRow || r.taxable !== null)) {
    zeroRow.taxable = inv.net - rows.reduce((sum, r) => (r === zeroRow ? sum : sum + (r.taxable ?? 0)), 0);
    zeroRow.derived = true;
  }
  return rows;
}

function totals(inv: Invoice, rows: readonly VatRow[]): Totals {
  let vat: number | null = null;
  let vatNote: string | null = null;
  if (rows.length > 0 && rows.every((r) => r.amount !== null)) {
    vat = rows.reduce((sum, r) => sum + (r.amount ?? 0), 0);
  } else if (inv.net !== null && inv.gross !== null) {
    vat = inv.gross - inv.net;
    vatNote = rows.length > 0 ? 'VAT total computed as gross - net: not every VAT amount was read' : 'VAT total computed as gross - net: no VAT lines were read';
  }
  const net = inv.net ?? (inv.gross !== null && vat !== null ? inv.gross - vat : null);
  const gross = inv.gross ?? (inv.net !== null && vat !== null ? inv.net + vat : null);
  return { net, gross, vat, netComputed: inv.net === null && net !== null, grossComputed: inv.gross === null && gross !== null, vatNote };
}

/** UBL 2.1 Invoice XML for one OCR-read invoice; `fallback` fills the mandatory fields that were not read. */
export function ublInvoiceXml(inv: Invoice, fallback: UblFallback): string {
  const currency = oneLine(inv.currency).toUpperCase() || oneLine(fallback.currency).toUpperCase();
  const cur = ` currencyID="${xmlEscape(currency)}"`;
  const amount = (tag: string, units: number): string => `<${tag}${cur}>${formatAmount(units)}</${tag}>`;

  const rows = vatRows(inv);
  const t = totals(inv, rows);
  const out: string[] = [];

  out.push(leaf('cbc:UBLVersionID', '2.1'));
  out.push(leaf('cbc:CustomizationID', CUSTOMIZATION_ID));
  out.push(leaf('cbc:ID', oneLine(inv.invoiceNumber) || oneLine(fallback.id)));
  out.push(leaf('cbc:IssueDate', isIsoDate(inv.issueDate) ? inv.issueDate : fallback.issueDate));
  if (isIsoDate(inv.dueDate)) out.push(leaf('cbc:DueDate', inv.dueDate));
  out.push(leaf('cbc:InvoiceTypeCode', INVOICE_TYPE_CODE));
  if (fallback.madeUp === true) out.push(leaf('cbc:Note', MADE_UP_NOTE));
  out.push(leaf('cbc:Note', OCR_NOTE));
  const failed = (fallback.checks ?? []).filter((c) => c.ok === false);
  if (fallback.checks) {
    out.push(leaf('cbc:Note', failed.length === 0 ? "Batchdesk's checks passed (line items, totals, VAT rate, due date, duplicates)." : `NEEDS REVIEW: ${failed.length} of Batchdesk's checks failed. Do not book or pay before checking.`));
    for (const c of failed) out.push(leaf('cbc:Note', `${c.check}: ${c.detail}`));
  }
  // A value UBL requires but OCR did not read is filled in, and says so where the bookkeeper reads.
  if (oneLine(inv.invoiceNumber) === '') out.push(leaf('cbc:Note', `Invoice number not read: Batchdesk's item ${oneLine(fallback.id)} stands in as the ID.`));
  if (!isIsoDate(inv.issueDate)) out.push(leaf('cbc:Note', `Issue date not read: ${fallback.issueDate}, the day the document was read, stands in.`));
  if (oneLine(inv.currency) === '') out.push(leaf('cbc:Note', `Currency not read: ${currency} assumed; check the document.`));
  out.push(leaf('cbc:DocumentCurrencyCode', currency));

  // Seller: name, country, VAT id and legal name, each when read.
  const vendor = oneLine(inv.vendor);
  const vatId = oneLine(inv.vendorVatId);
  const country = oneLine(inv.country).toUpperCase();
  const supplier: string[] = [];
  if (vendor !== '') supplier.push(...wrap('cac:PartyName', [leaf('cbc:Name', vendor)]));
  if (/^[A-Z]{2}$/.test(country)) supplier.push(...wrap('cac:PostalAddress', wrap('cac:Country', [leaf('cbc:IdentificationCode', country)])));
  if (vatId !== '') {
    supplier.push(...wrap('cac:PartyTaxScheme', [leaf('cbc:CompanyID', vatId), ...wrap('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]));
  }
  if (vendor !== '') supplier.push(...wrap('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', vendor)]));
  out.push(...wrap('cac:AccountingSupplierParty', supplier.length > 0 ? wrap('cac:Party', supplier) : [comment('Vendor not read')]));

  // Buyer: the element is mandatory in UBL even when nothing about the buyer was read.
  const buyer = oneLine(inv.buyer);
  out.push(
    ...wrap('cac:AccountingCustomerParty', buyer !== '' ? wrap('cac:Party', wrap('cac:PartyName', [leaf('cbc:Name', buyer)])) : [comment('Buyer not read')]),
  );

  // VAT: the total and one subtotal per rate whose VAT amount is known.
  if (t.vat !== null) {
    const tax: string[] = [amount('cbc:TaxAmount', t.vat)];
    if (t.vatNote !== null) tax.push(comment(t.vatNote));
    let derivedSaid = false;
    for (const row of rows) {
      if (row.amount === null) {
        tax.push(comment(`VAT amount at ${decimal(row.rate)} % not read: no subtotal for this rate`));
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
      sub.push(
        ...wrap('cac:TaxCategory', [leaf('cbc:ID', row.rate > 0 ? 'S' : 'Z'), leaf('cbc:Percent', decimal(row.rate)), ...wrap('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]),
      );
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

  // Lines: as read, or one line carrying the total (UBL needs at least one InvoiceLine).
  if (inv.lines.length > 0) {
    inv.lines.forEach((line, i) => {
      const body: string[] = [leaf('cbc:ID', String(i + 1))];
      const qty = line.quantity !== null && Number.isFinite(line.quantity) ? line.quantity : null;
      if (qty !== null) body.push(leaf('cbc:InvoicedQuantity', decimal(qty), ` unitCode="${UNIT_CODE}"`));
      let lineAmount = line.amount;
      if (lineAmount === null && qty !== null && line.unitPrice !== null) {
        lineAmount = Math.round(qty * line.unitPrice);
        body.push(comment('Line amount computed as quantity x unit price (not read)'));
      } else if (lineAmount === null) {
        body.push(comment('Line amount not read: 0.00 because UBL requires it'));
      }
      body.push(amount('cbc:LineExtensionAmount', lineAmount ?? 0));
      const name = oneLine(line.description);
      body.push(...(name !== '' ? wrap('cac:Item', [leaf('cbc:Name', name)]) : ['<cac:Item/>']));
      // A unit price may go below the cent (0.125 a sheet): written to 4 places then, not rounded.
      if (line.unitPrice !== null) body.push(...wrap('cac:Price', [`<cbc:PriceAmount${cur}>${formatAmount(line.unitPrice, line.unitPrice % 100 === 0 ? 2 : 4)}</cbc:PriceAmount>`]));
      out.push(...wrap('cac:InvoiceLine', body));
    });
  } else {
    const total = t.net ?? t.gross;
    const body: string[] = [leaf('cbc:ID', '1'), leaf('cbc:InvoicedQuantity', '1', ` unitCode="${UNIT_CODE}"`)];
    if (t.net === null) body.push(comment(total === null ? 'No total read: 0.00 because UBL requires an amount' : 'Gross amount: the net amount is not known'));
    body.push(amount('cbc:LineExtensionAmount', total ?? 0));
    body.push(...wrap('cac:Item', [leaf('cbc:Name', NO_LINES_NAME)]));
    body.push(...wrap('cac:Price', [amount('cbc:PriceAmount', total ?? 0)]));
    out.push(...wrap('cac:InvoiceLine', body));
  }

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Invoice xmlns="${NS_INVOICE}" xmlns:cac="${NS_CAC}" xmlns:cbc="${NS_CBC}">`,
    ...out.map((l) => `  ${l}`),
    '</Invoice>',
    '',
  ].join('\n');
}
