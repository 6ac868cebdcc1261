// A UN/CEFACT Cross Industry Invoice (CII D16B: XRechnung in CII syntax, the XML of a
// ZUGFeRD/Factur-X PDF) -> Invoice, by the EN 16931 business terms as the CEN CII binding places them.
import type { Invoice, InvoiceLine, VatLine } from '../../../shared/invoices/invoice';
import { countryOfVatId } from '../../../shared/invoices/vat-rates';
import { addressOf, categoryOf, ciiDate, isCreditNoteCode, vatIdOf } from './einvoice-parties';
import { all, amountOf, at, attr, nodes, numberOf, text, type XmlNode } from './xml-nodes';

/** BT-31 / BT-48: the tax registration with scheme VA (FC is a tax number, not a VAT id). */
function partyVatId(party: unknown): string | null {
  const regs = nodes(party, 'SpecifiedTaxRegistration');
  const vat = regs.find((r) => attr(at(r, 'ID'), 'schemeID')?.toUpperCase() === 'VA');
  return vatIdOf(text(vat, 'ID'));
}

function partyAddress(party: unknown) {
  const a = at(party, 'PostalTradeAddress');
  const street = [text(a, 'LineOne'), text(a, 'LineTwo')].filter((x) => x !== null).join(', ');
  return addressOf({ street: street === '' ? null : street, city: text(a, 'CityName'), postalCode: text(a, 'PostcodeCode'), country: text(a, 'CountryID') });
}

function lineOf(item: XmlNode): InvoiceLine {
  const settlement = at(item, 'SpecifiedLineTradeSettlement');
  const tax = at(settlement, 'ApplicableTradeTax');
  return {
    description: text(item, 'SpecifiedTradeProduct/Name') ?? text(item, 'SpecifiedTradeProduct/Description') ?? '',
    quantity: numberOf(at(item, 'SpecifiedLineTradeDelivery/BilledQuantity')),
    // BT-146 is the net price; a price per several units (BT-149) is left as stated.
    unitPrice: amountOf(at(item, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount')),
    amount: amountOf(at(settlement, 'SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount')),
    vatRate: numberOf(at(tax, 'RateApplicablePercent')),
    vatCategory: categoryOf(text(tax, 'CategoryCode')),
  };
}

function vatLineOf(tax: XmlNode): VatLine {
  return {
    rate: numberOf(at(tax, 'RateApplicablePercent')) ?? 0,
    amount: amountOf(at(tax, 'CalculatedAmount')),
    category: categoryOf(text(tax, 'CategoryCode')),
    taxable: amountOf(at(tax, 'BasisAmount')),
    exemptionReason: text(tax, 'ExemptionReason'),
    exemptionCode: text(tax, 'ExemptionReasonCode'),
  };
}

export function readCii(doc: XmlNode): Invoice {
  const trade = at(doc, 'SupplyChainTradeTransaction');
  const agreement = at(trade, 'ApplicableHeaderTradeAgreement');
  const settlement = at(trade, 'ApplicableHeaderTradeSettlement');
  const seller = at(agreement, 'SellerTradeParty');
  const buyer = at(agreement, 'BuyerTradeParty');
  const sums = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = text(settlement, 'InvoiceCurrencyCode')?.toUpperCase() ?? null;
  const vendorVatId = partyVatId(seller);
  const vat = nodes(settlement, 'ApplicableTradeTax').map(vatLineOf);
  const reasons = vat.map((v) => v.exemptionReason).filter((r): r is string => r !== null);
  return {
    vendor: text(seller, 'Name'),
    vendorVatId,
    buyer: text(buyer, 'Name'),
    country: countryOfVatId(vendorVatId),
    invoiceNumber: text(doc, 'ExchangedDocument/ID'),
    issueDate: ciiDate(text(doc, 'ExchangedDocument/IssueDateTime/DateTimeString')),
    dueDate: ciiDate(text(settlement, 'SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString')),
    currency,
    lines: all(trade, 'IncludedSupplyChainTradeLineItem')
      .filter((l): l is XmlNode => typeof l === 'object' && l !== null)
      .map(lineOf),
    net: amountOf(at(sums, 'TaxBasisTotalAmount')),
    vat,
    gross: amountOf(at(sums, 'GrandTotalAmount')),
    documentType: isCreditNoteCode(text(doc, 'ExchangedDocument/TypeCode')) ? 'credit-note' : 'invoice',
    buyerVatId: partyVatId(buyer),
    buyerAddress: partyAddress(buyer),
    sellerAddress: partyAddress(seller),
    vatNote: reasons.length > 0 ? reasons.join('; ') : null,
  };
}
