// VAT rates by country, for the vat_rate check: a rate on an invoice must be one its vendor's
// country charges on the invoice's date. Standard, reduced, super-reduced and parking rates, and
// 0 (exempt, zero-rated, reverse charge) everywhere. Sources: the European Commission's "VAT
// rates applied in the Member States" and the national tax authorities, as of November 2026;
// the changes since 2020 that matter for invoices still being booked are kept by date.
interface Period {
  /** First day (YYYY-MM-DD) the rates apply; the earliest period also covers anything before. */
  from: string;
  rates: readonly number[];
}

const RATES: Record<string, readonly Period[]> = {
  AT: [{ from: '2016-01-01', rates: [20, 13, 10] }],
  BE: [{ from: '2016-01-01', rates: [21, 12, 6] }],
  BG: [{ from: '2016-01-01', rates: [20, 9] }],
  CY: [{ from: '2016-01-01', rates: [19, 9, 5, 3] }],
  CZ: [
    { from: '2016-01-01', rates: [21, 15, 10] },
    { from: '2024-01-01', rates: [21, 12] },
  ],
  DE: [
    { from: '2016-01-01', rates: [19, 7] },
    { from: '2020-07-01', rates: [16, 5] },
    { from: '2021-01-01', rates: [19, 7] },
  ],
  DK: [{ from: '2016-01-01', rates: [25] }],
  EE: [
    { from: '2016-01-01', rates: [20, 9] },
    { from: '2024-01-01', rates: [22, 9] },
    { from: '2025-01-01', rates: [22, 13, 9] },
    { from: '2025-07-01', rates: [24, 13, 9] },
  ],
  ES: [{ from: '2016-01-01', rates: [21, 10, 5, 4] }],
  FI: [
    { from: '2016-01-01', rates: [24, 14, 10] },
    { from: '2024-09-01', rates: [25.5, 14, 10] },
    { from: '2025-01-01', rates: [25.5, 14, 13.5, 10] },
  ],
  FR: [{ from: '2016-01-01', rates: [20, 10, 5.5, 2.1] }],
  GR: [{ from: '2016-01-01', rates: [24, 13, 6] }],
  HR: [{ from: '2016-01-01', rates: [25, 13, 5] }],
  HU: [{ from: '2016-01-01', rates: [27, 18, 5] }],
  IE: [{ from: '2016-01-01', rates: [23, 13.5, 9, 4.8] }],
  IT: [{ from: '2016-01-01', rates: [22, 10, 5, 4] }],
  LT: [{ from: '2016-01-01', rates: [21, 9, 5] }],
  LU: [
    { from: '2016-01-01', rates: [17, 14, 8, 3] },
    { from: '2023-01-01', rates: [16, 13, 7, 3] },
    { from: '2024-01-01', rates: [17, 14, 8, 3] },
  ],
  LV: [{ from: '2016-01-01', rates: [21, 12, 5] }],
  MT: [{ from: '2016-01-01', rates: [18, 7, 5] }],
  NL: [{ from: '2016-01-01', rates: [21, 9] }],
  PL: [{ from: '2016-01-01', rates: [23, 8, 5] }],
  PT: [{ from: '2016-01-01', rates: [23, 13, 6] }],
  RO: [
    { from: '2016-01-01', rates: [19, 9, 5] },
    { from: '2025-08-01', rates: [21, 11] },
  ],
  SE: [{ from: '2016-01-01', rates: [25, 12, 6] }],
  SI: [{ from: '2016-01-01', rates: [22, 9.5, 5] }],
  SK: [
    { from: '2016-01-01', rates: [20, 10, 5] },
    { from: '2025-01-01', rates: [23, 19, 5] },
  ],
  // Outside the EU, with their own VAT ids.
  GB: [{ from: '2016-01-01', rates: [20, 5] }],
  NO: [{ from: '2016-01-01', rates: [25, 15, 12] }],
  CH: [
    { from: '2016-01-01', rates: [7.7, 3.7, 2.5] },
    { from: '2024-01-01', rates: [8.1, 3.8, 2.6] },
  ],
};

const NAMES: Record<string, string> = {
  AT: 'Austria',
  BE: 'Belgium',
  BG: 'Bulgaria',
  CY: 'Cyprus',
  CZ: 'Czechia',
  DE: 'Germany',
  DK: 'Denmark',
  EE: 'Estonia',
  ES: 'Spain',
  FI: 'Finland',
  FR: 'France',
  GR: 'Greece',
  HR: 'Croatia',
  HU: 'Hungary',
  IE: 'Ireland',
  IT: 'Italy',
  LT: 'Lithuania',
  LU: 'Luxembourg',
  LV: 'Latvia',
  MT: 'Malta',
  NL: 'the Netherlands',
  PL: 'Poland',
  PT: 'Portugal',
  RO: 'Romania',
  SE: 'Sweden',
  SI: 'Slovenia',
  SK: 'Slovakia',
  GB: 'the United Kingdom',
  NO: 'Norway',
  CH: 'Switzerland',
};

/** The country's name in a sentence ("Germany", "the United Kingdom"), or its code. */
export function countryName(code: string): string {
  return NAMES[code] ?? code;
}

/** The rates (percent, 0 included) a country charges on a date (YYYY-MM-DD, or null for today's), or null when unknown. */
export function vatRatesOf(country: string, date: string | null): number[] | null {
  const periods = RATES[country];
  if (!periods) return null;
  const on = date ?? '9999-12-31';
  let rates = periods[0]?.rates ?? [];
  for (const p of periods) if (p.from <= on) rates = p.rates;
  return [...rates, 0];
}

/**
 * The country of a VAT id, from its prefix: "DE123456789" -> DE, "EL..." -> GR (Greece's VAT
 * prefix), "XI..." -> GB (Northern Ireland), "CHE-123.456.789 MWST" -> CH, "NO923456789MVA" -> NO.
 */
export function countryOfVatId(vatId: string | null): string | null {
  if (!vatId) return null;
  const id = vatId.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (id.startsWith('CHE')) return 'CH';
  const prefix = id.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(prefix)) return null;
  if (prefix === 'EL') return 'GR';
  if (prefix === 'XI') return 'GB';
  return RATES[prefix] ? prefix : null;
}

/** Country names as invoices print them (English, German, own language) -> ISO 3166-1 alpha-2. */
const COUNTRY_WORDS: Record<string, string> = {
  austria: 'AT',
  österreich: 'AT',
  belgium: 'BE',
  belgien: 'BE',
  belgique: 'BE',
  bulgaria: 'BG',
  cyprus: 'CY',
  czechia: 'CZ',
  'czech republic': 'CZ',
  germany: 'DE',
  deutschland: 'DE',
  denmark: 'DK',
  dänemark: 'DK',
  danmark: 'DK',
  estonia: 'EE',
  spain: 'ES',
  spanien: 'ES',
  españa: 'ES',
  finland: 'FI',
  finnland: 'FI',
  suomi: 'FI',
  france: 'FR',
  frankreich: 'FR',
  greece: 'GR',
  griechenland: 'GR',
  croatia: 'HR',
  hungary: 'HU',
  ireland: 'IE',
  irland: 'IE',
  italy: 'IT',
  italien: 'IT',
  italia: 'IT',
  lithuania: 'LT',
  luxembourg: 'LU',
  luxemburg: 'LU',
  latvia: 'LV',
  malta: 'MT',
  netherlands: 'NL',
  'the netherlands': 'NL',
  niederlande: 'NL',
  nederland: 'NL',
  poland: 'PL',
  polen: 'PL',
  polska: 'PL',
  portugal: 'PT',
  romania: 'RO',
  rumänien: 'RO',
  sweden: 'SE',
  schweden: 'SE',
  sverige: 'SE',
  slovenia: 'SI',
  slovakia: 'SK',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'vereinigtes königreich': 'GB',
  großbritannien: 'GB',
  norway: 'NO',
  norwegen: 'NO',
  norge: 'NO',
  switzerland: 'CH',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
};

/** ISO 3166-1 alpha-2 of a printed country ("Germany", "Österreich", "DE"); null when not a country Batchdesk knows. */
export function countryCodeOf(printed: string): string | null {
  const t = printed.trim().toLowerCase().replace(/\.$/, '');
  if (/^[a-z]{2}$/.test(t)) {
    const code = t.toUpperCase();
    return code === 'EL' ? 'GR' : RATES[code] || code === 'GB' ? code : null;
  }
  return COUNTRY_WORDS[t] ?? null;
}
