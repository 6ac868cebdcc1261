// What was spent, grouped as a report asks (read-models/spend-report.ts), days in this computer's time zone.
import { SpendQuery, type SpendReport } from '../../../shared/spend';
import { spendReportOf } from '../read-models/spend-report';
import { localZone } from '../messaging/recipient-zone';
import type { ControlPlane } from './plane';

export async function spend(plane: ControlPlane, q: SpendQuery): Promise<SpendReport> {
  const parsed = SpendQuery.parse(q);
  return spendReportOf(parsed, await plane.store.spendRows(parsed, localZone()));
}
