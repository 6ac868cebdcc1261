// After an export with UBL e-invoices (the export menu's zip, or result files): how many pass EN 16931,
// and where the report lists what the others lack. One sentence for both places that say it.
import { t } from '../i18n';
import { formatCount } from '../format/time';

export function ublWords(ubl: { declared: number; notDeclared: number; report: string } | null | undefined): string | null {
  if (!ubl) return null;
  return t(ubl.notDeclared > 0 ? 'results:files.ublMissing' : 'results:files.ubl', {
    declared: formatCount(ubl.declared),
    total: formatCount(ubl.declared + ubl.notDeclared),
    report: ubl.report,
  });
}
