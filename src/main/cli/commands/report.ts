// report: spend grouped by client, key, batch, capability or day; a client's monthly statement.
import { writeFileSync } from 'node:fs';
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { nounFor } from '../format';
import { reportSpec } from '../specs/report';
import { SPEND_BY, SpendBy, SpendQuery, monthRange, spendCsv, type SpendReport } from '../../../shared/spend';
import { formatEur, moneyToDecimal } from '../../../shared/money';
import { openCliDesk } from '../desk';

function table(r: SpendReport): string {
  if (r.rows.length === 0)
    return `No spend${r.from || r.to ? ` from ${r.from ?? 'the start'} to ${r.to ?? 'today'}` : ''}${r.client !== undefined ? ` for ${r.client ?? 'batches without a client'}` : ''}.`;
  const head = [r.by, 'items', 'units', 'spent', 'days'];
  const rows = r.rows.map((x) => [
    r.by === 'batch' ? `${x.label} (${x.group})` : x.label,
    x.items.toLocaleString('en'),
    x.units === null ? '' : `${x.units.toLocaleString('en')} ${x.unit === null ? '' : nounFor(x.units, x.unit)}`.trimEnd(),
    formatEur(x.cost),
    x.first === x.last ? x.first : `${x.first} to ${x.last}`,
  ]);
  rows.push(['total', r.items.toLocaleString('en'), '', formatEur(r.total), '']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

export const reportCommand = bindCommand(reportSpec, async ({ values }, io) => {
  const by = SpendBy.safeParse(values.by);
  if (!by.success) throw new UsageError(`report needs --by ${SPEND_BY.join('|')}${values.by ? ` (got "${values.by}")` : ''}.`);
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'csv' && format !== 'json') throw new UsageError(`--format must be table, csv or json (got "${format}").`);
  let range: { from: string | null; to: string | null } = { from: values.from ?? null, to: values.to ?? null };
  if (values.month !== undefined) {
    if (values.from !== undefined || values.to !== undefined) throw new UsageError('Give --month, or --from and --to, not both.');
    const m = monthRange(values.month);
    if (!m) throw new UsageError(`--month is a calendar month written YYYY-MM, such as 2026-11 (got "${values.month}").`);
    range = m;
  }
  const query = SpendQuery.safeParse({
    by: by.data,
    ...range,
    ...(values.client !== undefined ? { client: values.client.trim() === '' ? null : values.client.trim() } : {}),
  });
  if (!query.success) {
    const issue = query.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? 'from')}: ${issue?.message ?? 'not valid'} (days are YYYY-MM-DD, such as 2026-11-01).`);
  }
  // A team's shared store (--store, BATCHDESK_STORE): what every worker spent; days in this computer's time zone.
  const desk = await openCliDesk(values, io, { read: true });
  const spend = (q: SpendQuery): Promise<SpendReport> => desk.control.spend(q);
  try {
    const report = await spend(query.data);
    // A client name that matches no batch says which names there are (a label or a typo reads as "no spend").
    const wanted = query.data.client;
    if (typeof wanted === 'string' && report.rows.length === 0) {
      const known = (await spend({ by: 'client' })).rows.map((r) => (r.group === '' ? '"" (no client)' : `"${r.group}"`));
      if (!known.includes(`"${wanted}"`)) {
        throw new UsageError(
          `No batch is billed to the client "${wanted}"${known.length > 0 ? `; clients with spend: ${known.join(', ')}` : '; nothing has been spent yet'}. Client names are matched exactly, as stored with the keys (\`batchdesk keys list\`).`,
        );
      }
    }
    const text =
      format === 'csv'
        ? spendCsv(report)
        : format === 'json'
          ? `${JSON.stringify({ ...(desk.url !== null ? { store: desk.url } : {}), ...report, total_eur: moneyToDecimal(report.total), rows: report.rows.map((r) => ({ ...r, cost_eur: moneyToDecimal(r.cost) })) }, null, 2)}\n`
          : `${desk.words.spentHeading}${table(report)}\n`;
    if (values.out !== undefined) {
      try {
        writeFileSync(values.out, text, { flag: 'wx' });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new UsageError(
          code === 'EEXIST'
            ? `${values.out} already exists; give another --out name (nothing was overwritten).`
            : `Cannot write ${values.out}: ${(e as Error).message}`,
        );
      }
      io.stdout.write(`Wrote ${report.rows.length} row(s), ${formatEur(report.total)} in total, to ${values.out}\n`);
    } else io.stdout.write(text);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
