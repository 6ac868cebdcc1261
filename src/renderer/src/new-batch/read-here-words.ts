// Why an OCR estimate of e-invoices is 0 pages and nothing to pay: they are read on this computer.
// With scans beside them, what the scans take too, so both parts of the figures are named.
import type { Preview } from '../../../shared/contract';
import { i18n } from '../i18n';
import { formatUnits } from '../format/labels';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';

/** The estimate's lines for the items read here and the rest; [] when none is read here. `lng`: another language (the tests say both). */
export function readHereLines(preview: Pick<Preview, 'items' | 'einvoices' | 'units' | 'estimatedCost'>, lng?: string): string[] {
  const here = preview.einvoices;
  if (here <= 0) return [];
  const sent = preview.items - here;
  const l = lng ? { lng } : {};
  const readHere = i18n.t('newBatch:preview.readHere', { count: here, n: formatCount(here), ...l });
  if (sent <= 0) return [readHere];
  const units = formatUnits(preview.units.estimated, preview.units.name);
  return [i18n.t('newBatch:preview.sentForOcr', { count: sent, n: formatCount(sent), units, cost: formatMoney(preview.estimatedCost), ...l }), readHere];
}
