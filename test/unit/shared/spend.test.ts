// Days, months and the statement CSV of spend reports.
import { describe, expect, it } from 'vitest';
import { SpendQuery, dayStart, monthRange, spendCsv } from '../../../src/shared/spend';

describe('spend report helpers', () => {
  it('reads real calendar days and months only', () => {
    expect(dayStart('2026-02-28')).toBe(new Date(2026, 1, 28).getTime());
    expect(dayStart('2026-02-29')).toBeNull();
    expect(dayStart('2026-13-01')).toBeNull();
    expect(monthRange('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthRange('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthRange('2026-00')).toBeNull();
    expect(SpendQuery.safeParse({ by: 'day', from: '2026-11-30', to: '2026-11-01' }).success).toBe(false);
    expect(SpendQuery.parse({ by: 'client' })).toEqual({ by: 'client', from: null, to: null });
  });

  it('writes exact costs and safe cells', () => {
    const csv = spendCsv({
      by: 'client',
      from: null,
      to: null,
      rows: [
        {
          group: '=HYPERLINK("x")',
          label: 'ACME, "the" client',
          batches: 2,
          items: 3,
          units: null,
          unit: null,
          cost: 12_345,
          first: '2026-11-01',
          last: '2026-11-02',
        },
      ],
      items: 3,
      total: 12_345,
    });
    expect(csv.split('\r\n')).toEqual([
      'by,group,label,first_day,last_day,batches,items,units,unit,cost_eur',
      `client,"'=HYPERLINK(""x"")","ACME, ""the"" client",2026-11-01,2026-11-02,2,3,,,1.2345`,
      '',
    ]);
  });
});
