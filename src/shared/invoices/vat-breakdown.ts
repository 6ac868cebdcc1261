// An invoice's VAT breakdown as EN 16931 wants it (BG-23): one row per VAT category and rate, its
// taxable amount exact to the cent, and the category of every line (BT-151). The category is taken
// from what the document says: a rate above 0 is standard rated (S); a 0 % rate, or an invoice
// without VAT, is reverse charge (AE), an intra-community supply (K), exempt (E), outside the
// scope of VAT (O) or zero rated (Z) only when the document's own words say which. What the
// document does not settle is returned as a problem naming the business term, never guessed.
import type { Invoice, VAT_CATEGORIES } from './invoice';
import { countryOfVatId } from './vat-rates';

/** UNCL 5305 codes EN 16931 uses (L and M, the Canary Islands' and Ceuta's, are out of scope here). */
export type VatCategory = (typeof VAT_CATEGORIES)[number];

export interface VatRow {
  category: VatCategory;
  /** Percent; null for O (outside the scope of VAT has no rate). */
  rate: number | null;
  /** BT-116, 1/10,000 units; null when it cannot be known. */
  taxable: number | null;
  /** BT-117, 1/10,000 units; null when neither read nor computable. */
  amount: number | null;
  /** True when `taxable` was derived from the VAT amount and the rate, not from attributed lines. */
  derived: boolean;
  /** BT-121 (VATEX) and BT-120 (the document's words), for E, AE, K and O. */
  exemptionCode: string | null;
  exemptionReason: string | null;
}

export interface VatBreakdown {
  rows: VatRow[];
  /** Index into `rows` of each invoice line's category, or null when it cannot be attributed. */
  lineRows: (number | null)[];
  /** What keeps the breakdown from being EN 16931's: "BT-151 ...: why". Empty when complete. */
  problems: string[];
}

/** The document's words that name a category, tried in this order (a reverse charge note may also say "exempt"). */
const WORDS: ReadonlyArray<{ category: Exclude<VatCategory, 'S'>; re: RegExp; code: string | null }> = [
  {
    category: 'AE',
    re: /reverse[\s-]*charge|steuerschuldnerschaft\s+des\s+leistungsempf|autoliquidation|inversione\s+contabile|inversi[oó]n\s+del\s+sujeto\s+pasivo|omvendt\s+(?:avgiftsplikt|betalingspligt)|btw\s+verlegd|§\s*13b\s*UStG/iu,
    code: 'VATEX-EU-AE',
  },
  {
    category: 'K',
    re: /intra[\s-]*community\s+(?:supply|delivery)|innergemeinschaftliche\s+lieferung|livraison\s+intracommunautaire|§\s*4\s*Nr\.?\s*1\s*b\s*UStG|article\s+138/iu,
    code: 'VATEX-EU-IC',
  },
  {
    category: 'O',
    re: /not\s+subject\s+to\s+VAT|outside\s+the\s+scope\s+of\s+VAT|nicht\s+(?:im\s+inland\s+)?steuerbar|non\s+soumis\s+[àa]\s+la\s+TVA/iu,
    code: 'VATEX-EU-O',
  },
  { category: 'Z', re: /zero[\s-]*rated|nullsatz|§\s*12\s*Abs\.?\s*3\s*UStG/iu, code: null },
  { category: 'E', re: /\bexempt|steuerfrei|steuerbefreit|umsatzsteuerbefreit|§\s*19\s*UStG|§\s*4\s*Nr\.?\s*\d+|exon[ée]r[ée]|esente|exento/iu, code: null },
];

/** The category a 0 % rate (or an invoice without VAT) has by the document's words, or null when they say none. */
export function zeroCategoryOf(note: string | null | undefined): { category: Exclude<VatCategory, 'S'>; code: string | null } | null {
  if (!note) return null;
  const hit = WORDS.find((w) => w.re.test(note));
  return hit ? { category: hit.category, code: hit.code } : null;
}

const pct = (rate: number): string => `${rate} %`;

/** 1/10,000 units rounded half away from zero to whole cents. */
export function roundToCent(units: number): number {
  const rounded = Math.round(Math.abs(units) / 100) * 100;
  return units < 0 && rounded !== 0 ? -rounded : rounded;
}

/** A line's net amount as the export writes it: read, or quantity x unit price, to the cent; null when neither. */
export function lineNet(line: Invoice['lines'][number]): number | null {
  if (line.amount !== null) return roundToCent(line.amount);
  if (line.quantity !== null && Number.isFinite(line.quantity) && line.unitPrice !== null) return roundToCent(line.quantity * line.unitPrice);
  return null;
}

/** The breakdown of an invoice whose amounts are positive (a credit note's already turned round). */
export function vatBreakdown(inv: Invoice): VatBreakdown {
  const problems: string[] = [];
  const words = zeroCategoryOf(inv.vatNote);
  const reason = inv.vatNote?.replace(/\s+/g, ' ').trim() || null;
  const zeroRow = (amount: number | null): VatRow => {
    if (words) {
      return {
        category: words.category,
        rate: words.category === 'O' ? null : 0,
        taxable: null,
        amount: amount ?? 0,
        derived: false,
        exemptionCode: words.code,
        exemptionReason: words.category === 'Z' ? null : reason,
      };
    }
    // No words: a printed 0 % rate is zero rated, unless two countries' VAT ids make it a reverse
    // charge or an intra-community supply, which the document would have to say.
    const seller = countryOfVatId(inv.vendorVatId);
    const buyer = countryOfVatId(inv.buyerVatId ?? null);
    if (seller !== null && buyer !== null && seller !== buyer) {
      problems.push(
        `BT-118 VAT category: no VAT is charged between VAT ids of ${seller} and ${buyer}, which is a reverse charge (AE) or an intra-community supply (K), and the document does not say which (it would print "Reverse charge" or "Intra-community supply")`,
      );
    }
    return { category: 'Z', rate: 0, taxable: null, amount: amount ?? 0, derived: false, exemptionCode: null, exemptionReason: null };
  };

  const rows: VatRow[] = [];
  for (const v of inv.vat) {
    if (!Number.isFinite(v.rate)) continue;
    // A category the document states (an e-invoice's BT-118) is taken as it is, with its own base.
    if (v.category != null) {
      rows.push({
        category: v.category,
        rate: v.category === 'O' ? null : v.rate,
        taxable: v.taxable ?? null,
        amount: v.amount,
        derived: false,
        exemptionCode: v.exemptionCode ?? null,
        exemptionReason: v.exemptionReason ?? null,
      });
      continue;
    }
    if (v.rate > 0) rows.push({ category: 'S', rate: v.rate, taxable: null, amount: v.amount, derived: false, exemptionCode: null, exemptionReason: null });
    else rows.push(zeroRow(v.amount));
  }
  // No VAT line read: an invoice whose net is its gross charges no VAT, and its words say why.
  if (rows.length === 0 && inv.net !== null && inv.gross !== null && inv.net === inv.gross && words) rows.push(zeroRow(0));
  if (rows.length === 0) problems.push('BT-118 VAT category and BT-119 rate: the document states no VAT rate (nor why none is charged)');

  const lines = inv.lines.map(lineNet);
  const lineRows: (number | null)[] = inv.lines.map(() => null);
  const only = rows.length === 1 ? rows[0] : undefined;
  if (only !== undefined) {
    lineRows.fill(0);
    if (only.amount === null && inv.net !== null && inv.gross !== null) only.amount = inv.gross - inv.net;
    const linesSum = lines.every((l) => l !== null) && lines.length > 0 ? lines.reduce<number>((s, l) => s + (l ?? 0), 0) : null;
    only.taxable = only.taxable ?? linesSum ?? inv.net ?? (inv.gross !== null && only.amount !== null ? inv.gross - only.amount : null);
  } else if (rows.length > 1) {
    // Several rates: the lines' own rates, when the document gives every line one that is a rate of the breakdown.
    // A line's stated category (BT-151) picks among rows of the same rate; O has no rate.
    const rowOf = (l: Invoice['lines'][number]): number =>
      l.vatCategory != null
        ? rows.findIndex((r) => r.category === l.vatCategory && (r.rate ?? 0) === (l.vatRate ?? 0))
        : l.vatRate == null
          ? -1
          : rows.findIndex((r) => r.rate === l.vatRate);
    const attributed = inv.lines.length > 0 && inv.lines.every((l) => rowOf(l) >= 0);
    if (attributed && lines.every((l) => l !== null)) {
      inv.lines.forEach((l, i) => (lineRows[i] = rowOf(l)));
      rows.forEach((row, r) => (row.taxable = row.taxable ?? lines.reduce<number>((s, l, i) => (lineRows[i] === r ? s + (l ?? 0) : s), 0)));
    } else {
      problems.push(
        `BT-151 line VAT category: the document has ${rows.length} VAT rates (${rows.map((r) => pct(r.rate ?? 0)).join(', ')}) and does not say which line item is charged which`,
      );
      // Each rate's base derived from its VAT (VAT / rate), to the cent; a single 0 % rate gets the rest of the net.
      for (const row of rows) {
        if (row.taxable === null && row.rate !== null && row.rate > 0 && row.amount !== null) {
          row.taxable = roundToCent((row.amount * 100) / row.rate);
          row.derived = true;
        }
      }
      const zeros = rows.filter((r) => r.rate === 0 || r.rate === null);
      const rest = zeros.length === 1 ? zeros[0] : undefined;
      if (rest !== undefined && rest.taxable === null && inv.net !== null && rows.every((r) => r === rest || r.taxable !== null)) {
        rest.taxable = inv.net - rows.reduce((s, r) => (r === rest ? s : s + (r.taxable ?? 0)), 0);
        rest.derived = true;
      }
    }
  }
  if (rows.some((r) => r.category === 'O') && rows.some((r) => r.category !== 'O')) {
    problems.push('BT-118 VAT category: outside the scope of VAT (O) cannot be mixed with other categories on one invoice (BR-O-11)');
  }
  return { rows, lineRows, problems };
}
