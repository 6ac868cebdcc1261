// Runs a renderer function as a window in another language and locale would (i18next's language,
// the browser's locale for Intl), then puts English back.
import { vi } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';

export function inLanguage<T>(lng: 'en' | 'de', tag: string, fn: () => T): T {
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
  void i18n.changeLanguage(lng);
  try {
    return fn();
  } finally {
    void i18n.changeLanguage('en');
    vi.unstubAllGlobals();
  }
}
