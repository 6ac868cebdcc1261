// A message's delivery state as the window says it: the provider answers with its own word
// ("accepted", "delivered", "read": docs/api-assumptions.md A5), which is a code, not text to
// show. A state the window does not know is shown as the provider's, marked as its word.
import { exists, t } from '../i18n';

/** The states the catalogue names (common:delivery.*): shared/delivery-states.ts. */
export { DELIVERY_STATES } from '../../../shared/delivery-states';

export function deliveryWords(status: string): string {
  const code = status.trim().toLowerCase();
  const key = `common:delivery.${code}`;
  // Keys built from the provider's value: DELIVERY_STATES and the catalogue test keep them in step.
  return code !== 'other' && exists(key) ? t(key as 'common:delivery.accepted') : t('common:delivery.other', { status: status.trim() });
}
