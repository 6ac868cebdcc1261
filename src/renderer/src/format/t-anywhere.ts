// `t` for modules that node-side tests also load (labels, the draft's rules): i18next itself, not
// ../i18n, whose DOM and React imports do not belong in that program. In the window ../i18n has
// initialised the shared instance before anything renders; where nothing has, an English instance
// of the same catalogues answers, so those modules say the same as the window does in English.
import i18next from 'i18next';

type T = typeof i18next.t;
import { DEFAULT_NAMESPACE, NAMESPACES, resources } from '../i18n/catalogues';

let english: typeof i18next | null = null;

function instance(): typeof i18next {
  if (i18next.isInitialized) return i18next;
  if (english === null) {
    english = i18next.createInstance();
    void english.init({
      resources,
      lng: 'en',
      ns: [...NAMESPACES],
      defaultNS: DEFAULT_NAMESPACE,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  return english;
}

function current(): T {
  return instance().t;
}

/** Whether the catalogue holds a key (for keys built from data, which the compiler cannot check). */
export function exists(key: string): boolean {
  return instance().exists(key);
}

// The overloads of i18next's t do not survive a spread: the wrapper passes its arguments on as they came.
export const t = ((...args: unknown[]) => (current() as unknown as (...a: unknown[]) => string)(...args)) as unknown as T;
