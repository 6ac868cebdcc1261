// The window's text: one i18next instance, ready when this module is imported (the catalogues
// are bundled, so nothing is fetched and labels computed at render time never see raw keys).
// React components reach it through <I18nextProvider> in main.tsx and useTranslation.
import i18next from 'i18next';
import { DEFAULT_NAMESPACE, NAMESPACES, resources } from './catalogues';
import { pickLanguage, preferredTags, type Language } from './locale';

export { formatLocale, pickLanguage, LANGUAGES, type Language } from './locale';

const doc = (globalThis as { document?: { documentElement: { lang: string } } }).document;

// Outside a window (the Node tests of renderer modules) the words are the English ones.
export const language: Language = doc === undefined ? 'en' : pickLanguage(preferredTags());

void i18next.init({
  resources,
  lng: language,
  fallbackLng: 'en',
  ns: [...NAMESPACES],
  defaultNS: DEFAULT_NAMESPACE,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

if (doc !== undefined) doc.documentElement.lang = language;

export const i18n = i18next;
/** For code outside components (labels, sentences built in models). Components use useTranslation. */
export const t = i18next.t.bind(i18next);
/** Whether the catalogue holds a key (for keys built from data, which the compiler cannot check). */
export const exists = i18next.exists.bind(i18next);
