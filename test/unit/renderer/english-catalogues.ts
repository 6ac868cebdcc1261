// The window's i18next instance, initialised in English from the bundled catalogues, for Node tests
// of renderer modules that word things through it (the window itself initialises it in
// src/renderer/src/i18n/index.ts, which brings React and the DOM and so stays out of Node tests).
import i18next from 'i18next';
import { DEFAULT_NAMESPACE, NAMESPACES, resources } from '../../../src/renderer/src/i18n/catalogues';

export async function useEnglishCatalogues(): Promise<void> {
  if (i18next.isInitialized && i18next.language === 'en') return;
  await i18next.init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    ns: [...NAMESPACES],
    defaultNS: DEFAULT_NAMESPACE,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}
