// "Download rejected rows" on a batch's page: the rows its import left out, kept with the batch,
// as a CSV to fix and import again: the same rows as `batchdesk batch skipped ID`, its problem
// column in the window's language, written for the OS locale's spreadsheet (the command line's: commas).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { skippedRowsCsv, type SkippedRow } from '../../../shared/skipped-rows';
import { client } from '../client';
import { downloadText, safeFilePart } from '../costs/download-text';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { formatCount } from '../format/time';
import { skippedCause } from './skipped-cause';
import { rejectedRowsForm } from '../../../shared/csv-words';
import { spreadsheetLocale } from '../format/spreadsheet-locale';
import { i18n } from '../i18n';

export function SkippedRowsButton({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('batch');
  const [rows, setRows] = useState<SkippedRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    client()
      .call('batches.skippedRows', { id: batch.id })
      .then((r) => live && setRows(r.rows))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [batch.id]);
  if (rows === null || rows.length === 0) return <ErrorAlert message={error} />;
  const count = new Set(rows.map((r) => `${r.source}\u0000${r.row}`)).size;
  const download = () => {
    const name = `${safeFilePart(batch.name)}-rejected.csv`;
    // For the spreadsheet of the OS locale, as the export menu's "for a spreadsheet" (';' where it
    // has a decimal comma), with the BOM Excel needs for accents; the importer reads it back as it is.
    const form = rejectedRowsForm(spreadsheetLocale(i18n.language).tag);
    downloadText(name, `\uFEFF${skippedRowsCsv(rows, (r) => skippedCause(r), form)}`);
    setNote(t('skipped.saved', { count, n: formatCount(count), name }));
  };
  return (
    <section className="stack" aria-labelledby="skipped-heading">
      <h2 id="skipped-heading">{t('skipped.heading', { count, n: formatCount(count) })}</h2>
      <div className="row">
        <button type="button" onClick={download}>
          {t('skipped.download')}
        </button>
      </div>
      <StatusNote message={note} />
    </section>
  );
}
