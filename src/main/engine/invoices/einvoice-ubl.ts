// A UBL 2.1 Invoice or CreditNote (an XRechnung in UBL syntax, a Peppol BIS invoice) -> Invoice,
// by the EN 16931 business terms: each value is taken from where the CEN UBL binding puts it,
// nothing is computed that the document does not state.
import type { Invoice, InvoiceLine, VatLine } from '../../../shared/invoices/invoice';
import { countryOfVatId } from '../../../shared/invoices/vat-rates';
import { addressOf, categoryOf, isCreditNoteCode, ublDate, vatIdOf } from './einvoice-parties';
import { all, amountOf, at, attr, nodes, numberOf, text, type XmlNode } from './xml-nodes';

/** The party's VAT id (BT-31, BT-48): the PartyTaxScheme whose scheme is VAT. */
function partyVatId(party: unknown): string | null {
  const schemes = nodes(party, 'PartyTaxScheme');
  const vat = schemes.find((s) => text(s, 'TaxScheme/ID')?.toUpperCase() === 'VAT') ?? schemes[0];
  return vatIdOf(text(vat, 'CompanyID'));
}

function partyAddress(party: unknown) {
  const a = at(party, 'PostalAddress');
  const street = [text(a, 'StreetName'), text(a, 'AdditionalStreetName')].filter((x) => x !== null).join(', ');
  return addressOf({
    street: street === '' ? null : street,
    city: text(a, 'CityName'),
    postalCode: text(a, 'PostalZone'),
    country: text(a, 'Country/IdentificationCode'),
  });
}

/** BT-27 / BT-44: the legal name, else the trading name (BT-28 / BT-45). */
function partyName(party: unknown): string | null {
  return text(party, 'PartyLegalEntity/RegistrationName') ?? text(party, 'PartyName/Name');
}

function lineOf(line: XmlNode, credit: boolean): InvoiceLine {
  const tax = at(line, 'Item/ClassifiedTaxCategory');
  const rate = numberOf(at(tax, 'Percent'));
  const category = categoryOf(text(tax, 'ID'));
  return {
    // BT-153 item name, else BT-154 description.
    description: text(line, 'Item/Name') ?? text(line, 'Item/Description') ?? '',
    quantity: numberOf(at(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity')),
    unitPrice: amountOf(at(line, 'Price/PriceAmount')),
    amount: amountOf(at(line, 'LineExtensionAmount')),
    vatRate: rate,
    vatCategory: category,
  };
}

/** BG-23: the TaxTotal in the document's currency (a second one may give VAT in the accounting currency, BT-111). */
function vatLines(doc: XmlNode, currency: string | null): { vat: VatLine[]; total: number | null } {
  const totals = nodes(doc, 'TaxTotal');
  const main = totals.find((t) => nodes(t, 'TaxSubtotal').length > 0) ?? totals.find((t) => attr(at(t, 'TaxAmount'), 'currencyID') === currency) ?? totals[0];
  const vat: VatLine[] = nodes(main, 'TaxSubtotal').map((sub) => {
    const cat = at(sub, 'TaxCategory');
    const category = categoryOf(text(cat, 'ID'));
    return {
      rate: numberOf(at(cat, 'Percent')) ?? 0,
      amount: amountOf(at(sub, 'TaxAmount')),
      category,
      taxable: amountOf(at(sub, 'TaxableAmount')),
      exemptionReason: text(cat, 'TaxExemptionReason'),
      exemptionCode: text(cat, 'TaxExemptionReasonCode'),
    };
  });
  return { vat, total: amountOf(at(main, 'TaxAmount')) };
}

export function readUbl(doc: XmlNode, root: 'Invoice' | 'CreditNote'): Invoice {
  const seller = at(doc, 'AccountingSupplierParty/Party');
  const buyer = at(doc, 'AccountingCustomerParty/Party');
  const credit = root === 'CreditNote' || isCreditNoteCode(text(doc, 'InvoiceTypeCode'));
  const currency = text(doc, 'DocumentCurrencyCode')?.toUpperCase() ?? null;
  const vendorVatId = partyVatId(seller);
  const { vat } = vatLines(doc, currency);
  const totals = at(doc, 'LegalMonetaryTotal');
  const lineKey = root === 'CreditNote' ? 'CreditNoteLine' : 'InvoiceLine';
  const reasons = vat.map((v) => v.exemptionReason).filter((r): r is string => r !== null);
  return {
    vendor: partyName(seller),
    vendorVatId,
    buyer: partyName(buyer),
    country: countryOfVatId(vendorVatId),
    invoiceNumber: text(doc, 'ID'),
    issueDate: ublDate(text(doc, 'IssueDate')),
    // BT-9: an Invoice's DueDate; a CreditNote has it under PaymentMeans.
    dueDate: ublDate(text(doc, 'DueDate') ?? text(doc, 'PaymentMeans/PaymentDueDate')),
    currency,
    lines: all(doc, lineKey)
      .filter((l): l is XmlNode => typeof l === 'object' && l !== null)
      .map((l) => lineOf(l, root === 'CreditNote')),
    net: amountOf(at(totals, 'TaxExclusiveAmount')),
    vat,
    gross: amountOf(at(totals, 'TaxInclusiveAmount')),
    documentType: credit ? 'credit-note' : 'invoice',
    buyerVatId: partyVatId(buyer),
    buyerAddress: partyAddress(buyer),
    sellerAddress: partyAddress(seller),
    vatNote: reasons.length > 0 ? reasons.join('; ') : null,
  };
}
