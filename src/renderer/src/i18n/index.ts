// The window's language and formats: the catalogues load with the window (no request), the
// language follows the OS (navigator.languages, which Electron and Chromium take from it).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_NAMESPACE, NAMESPACES, resources } from './catalogues';

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The first preferred language the window ships in; English otherwise. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const found = LANGUAGES.find((l) => l === base);
    if (found !== undefined) return found;
  }
  return 'en';
}

function preferredTags(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}

/** The locale numbers, money and dates are formatted in ("de-DE", "en-GB"): the OS's own. */
export function formatLocale(): string {
  const tag = preferredTags()[0];
  if (tag === undefined) return 'en-US';
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

export const language: Language = pickLanguage(preferredTags());

// initAsync false: resources are bundled, so the instance is ready when this module is imported
// (labels computed at render time never see raw keys).
void i18next.use(initReactI18next).init({
  resources,
  lng: language,
  fallbackLng: 'en',
  ns: [...NAMESPACES],
  defaultNS: DEFAULT_NAMESPACE,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
if (typeof document !== 'undefined') document.documentElement.lang = language;

export const i18n = i18next;
/** For code outside components (labels, sentences built in models). Components use useTranslation. */
export const t = i18next.t.bind(i18next);
