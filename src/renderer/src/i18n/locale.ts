// Which language the window speaks and which locale it formats in: the OS's, as the browser
// reports it (navigator.languages; Electron and Chromium take it from the OS).
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

export function preferredTags(): readonly string[] {
  const nav = (globalThis as { navigator?: { language?: string; languages?: readonly string[] } }).navigator;
  if (nav === undefined) return [];
  if (nav.languages !== undefined && nav.languages.length > 0) return nav.languages;
  return nav.language !== undefined ? [nav.language] : [];
}

/** The locale numbers, money and dates are formatted in ("de-DE", "en-GB"). */
export function formatLocale(): string {
  const tag = preferredTags()[0];
  if (tag === undefined) return 'en-US';
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}
