// An ISO 3166-1 alpha-2 country code ("DE", "GB"), as Intl knows the world's regions: what an
// invoice's country field and a batch's country of national phone numbers both take.

/** Codes that look like countries but are not ISO 3166-1 ones (Intl names them: EU, UN, ...). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ', 'XA', 'XB']);

export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && new Intl.DisplayNames(['en'], { type: 'region' }).of(code) !== code;
}
