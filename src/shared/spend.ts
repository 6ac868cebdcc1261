// Spend reports: what was paid, grouped by client, key, batch, capability or day, over a range of
// days; the same definition for `batchdesk report`, the Costs screen and a client's monthly
// statement. Pure (the renderer imports it).
import { z } from 'zod';
import { moneyToDecimal } from './money';
import { csvField } from './csv-field';

export const SPEND_BY = ['client', 'key', 'batch', 'capability', 'day'] as const;
export const SpendBy = z.enum(SPEND_BY);
export type SpendBy = z.infer<typeof SpendBy>;

/** A calendar day in the user's local time, as `report --from/--to` and the window give it. */
export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD')
  .refine((d) => dayStart(d) !== null, 'not a real calendar day');

export const SpendQuery = z
  .object({
    by: SpendBy,
    /** First and last day included (local time); null: from the first spend / up to today. */
    from: Day.nullable().default(null),
    to: Day.nullable().default(null),
    /** Only this client's batches; null: batches without a client; absent: every client. */
    client: z.string().max(200).nullable().optional(),
  })
  .strict()
  .refine((q) => q.from === null || q.to === null || q.from <= q.to, { message: 'the first day (from) comes after the last (to)', path: ['from'] });
export type SpendQuery = z.input<typeof SpendQuery>;

export const SpendRow = z.object({
  /** What the row is grouped by: a client name ('' for none), a key label, a batch id, a capability, a day. */
  group: z.string(),
  /** How the window and the statement show it ("No client", a batch's name, "Transcription"). */
  label: z.string(),
  batches: z.number().int(),
  items: z.number().int(),
  /** Measured units, when every item of the row counts the same unit (one capability). */
  units: z.number().nullable(),
  unit: z.string().nullable(),
  cost: z.number().int(),
  /** The first and last day with spend in the row. */
  first: z.string(),
  last: z.string(),
});
export type SpendRow = z.infer<typeof SpendRow>;

export const SpendReport = z.object({
  by: SpendBy,
  from: z.string().nullable(),
  to: z.string().nullable(),
  client: z.string().nullable().optional(),
  rows: z.array(SpendRow),
  items: z.number().int(),
  total: z.number().int(),
});
export type SpendReport = z.infer<typeof SpendReport>;

export const NO_CLIENT_LABEL = 'No client';

/** Local midnight of a YYYY-MM-DD day (ms), or null when it is not a real date. */
export function dayStart(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(y, mo - 1, d);
  return t.getFullYear() === y && t.getMonth() === mo - 1 && t.getDate() === d ? t.getTime() : null;
}

/** A month (YYYY-MM) as its first and last day. */
export function monthRange(month: string): { from: string; to: string } | null {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return null;
  const [y, mo] = [Number(m[1]), Number(m[2])];
  if (mo < 1 || mo > 12) return null;
  const last = new Date(y, mo, 0).getDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export const SPEND_CSV_COLUMNS = ['by', 'group', 'label', 'first_day', 'last_day', 'batches', 'items', 'units', 'unit', 'cost_eur'] as const;

/** The report as CSV: one row per group, cost exact to 1/10,000 EUR (the window's statement download uses the same). */
export function spendCsv(report: SpendReport): string {
  const lines = [SPEND_CSV_COLUMNS.join(',')];
  for (const r of report.rows) {
    lines.push([report.by, r.group, r.label, r.first, r.last, r.batches, r.items, r.units, r.unit, moneyToDecimal(r.cost)].map((v) => csvField(v)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
