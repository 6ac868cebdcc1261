// Keys are checked by the compiler: a t('ns:key') that no English catalogue holds does not build.
import 'i18next';
import type { DEFAULT_NAMESPACE, resources } from './catalogues';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: (typeof resources)['en'];
    returnNull: false;
  }
}
