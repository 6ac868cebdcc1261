import { resolve } from 'node:path';
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { exportSpec } from '../specs/export';
import { CSV_FORMATS, EXPORT_COUNTS, TABLE_FORMATS, type ExportFormat, type ExportOptions } from '../../engine/exporters/export-batch';
import { LocaleTag, spreadsheetCsv } from '../../../shared/csv-dialect';
import { spreadsheetForm } from '../../engine/exporters/sheet-form';
import { FILES_FORMATS, type FilesFormat } from '../../../shared/capabilities/result-files';
import { openCliDesk } from '../desk';

const FORMATS: readonly (ExportFormat | FilesFormat)[] = [...TABLE_FORMATS, ...FILES_FORMATS];

const isFiles = (f: ExportFormat | FilesFormat): f is FilesFormat => (FILES_FORMATS as readonly string[]).includes(f);

/** What a files export wrote, in words: "file(s)", or "subtitle file(s) (.srt)". */
const WHAT: Record<FilesFormat, string> = {
  files: 'file(s)',
  srt: 'SubRip subtitle file(s) (.srt)',
  vtt: 'WebVTT subtitle file(s) (.vtt)',
  ubl: 'UBL 2.1 invoice(s) (.xml)',
};

/**
 * The CSV's form for --csv-locale (its dialect only) or --spreadsheet (the dialect, and the
 * locale's words and dates, as the window's export for a spreadsheet); {} for the interchange
 * form. Refused for a format that is not CSV, for a tag that is no locale, and for both at once.
 */
function csvFormOf(values: { 'csv-locale'?: string; spreadsheet?: string }, format: ExportFormat | FilesFormat): ExportOptions {
  const csvLocale = values['csv-locale'];
  const sheet = values.spreadsheet;
  if (csvLocale !== undefined && sheet !== undefined)
    throw new UsageError('give --csv-locale or --spreadsheet, not both (--spreadsheet sets the delimiter and decimal sign too).');
  const flag = sheet !== undefined ? '--spreadsheet' : '--csv-locale';
  const locale = sheet ?? csvLocale;
  if (locale === undefined) return {};
  if (!CSV_FORMATS.includes(format as ExportFormat))
    throw new UsageError(`${flag} is for the CSV formats (${CSV_FORMATS.join(', ')}); --format ${format} keeps its own number form.`);
  const tag = LocaleTag.safeParse(locale);
  if (!tag.success) throw new UsageError(`${flag} "${locale}" is not a locale; give one such as de-DE, fr-FR or en-GB.`);
  return sheet === undefined ? { csv: spreadsheetCsv(tag.data) } : { csv: spreadsheetCsv(tag.data), sheet: spreadsheetForm(tag.data) };
}

export const exportCommand = bindCommand(exportSpec, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw new UsageError('export takes exactly one batch id.');
  const format = FORMATS.find((f) => f === values.format);
  if (!format)
    throw new UsageError(`--format must be ${FORMATS.slice(0, -1).join(', ')} or ${FORMATS[FORMATS.length - 1] ?? ''} (got "${values.format ?? ''}").`);
  if (!values.out)
    throw new UsageError(isFiles(format) ? `export --format ${format} needs --out DIR (the folder to write the files into).` : 'export needs --out PATH.');
  const out = resolve(values.out);
  const csvForm = csvFormOf(values, format);
  // The data folder's batch, or a team's (--store, BATCHDESK_STORE) read from there page by page.
  const desk = await openCliDesk(values, io, { read: true });
  try {
    const id = await desk.control.resolveBatchId(positionals[0] ?? '');
    const where = desk.words.fromStore;
    if (isFiles(format)) {
      const r = await desk.exportFiles(id, format, out);
      io.stdout.write(
        `Wrote ${r.written} ${WHAT[format]} of ${id}${where} to ${out} (${r.noFile} item(s) had no file: failed or not done${r.problemCount > 0 ? `; ${r.problemCount} succeeded item(s) could not be written, listed below` : ''})\n`,
      );
      if (r.ubl) {
        io.stdout.write(
          `UBL: ${r.ubl.declared} invoice(s) pass EN 16931 and declare it${r.ubl.notDeclared > 0 ? `; ${r.ubl.notDeclared} could not (the document lacks a mandatory value): their missing business terms are listed in ${r.ubl.report}` : ` (report: ${r.ubl.report})`}\n`,
        );
      }
      if (r.written === 0 && r.noFile > 0 && r.problemCount === 0)
        io.stdout.write(io.carry(`Nothing has succeeded yet: \`batchdesk run ${id}${desk.storeFlag}\` first, then export again.\n`));
      // Succeeded items whose file could not be given: named, with the cause and what to do.
      for (const p of r.problems) io.stderr.write(io.carry(`! ${p.item}: ${p.message}\n`));
      if (r.problemCount > r.problems.length) io.stderr.write(`! and ${r.problemCount - r.problems.length} more item(s) like these\n`);
      return r.problemCount > 0 ? EXIT.someFailed : EXIT.ok;
    }
    const n = await desk.exportTable(id, format, out, { bom: values['no-bom'] !== true, ...csvForm });
    io.stdout.write(`Wrote ${n} ${EXPORT_COUNTS[format]} of ${id}${where} to ${out}\n`);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
