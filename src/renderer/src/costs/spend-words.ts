// A client as the window names it: the engine labels batches without a client "No client" for
// the command line and the CSV; the window says it in its own language.
import { t } from '../i18n';

/** A client's name, or the window's words for batches without one. */
export function clientWords(name: string | null): string {
  return name === null || name === '' ? t('costs:noClient') : name;
}
