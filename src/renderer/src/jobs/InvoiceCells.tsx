// An invoice batch's own cells in the job table: its checks, then number, vendor and gross total in
// columns of their own (at 1280 px one "number · vendor · total" cell cut the total, the part a
// person reads first). A reviewed invoice shows its corrected figures, as the exports carry them,
// each changed one marked with what was read.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobRowView } from '../../../shared/contract';
import type { SuggestedInList } from '../../../shared/invoices/review-decision';
import { formatInvoiceMoney } from '../results/local-numbers';
import { Icon, CORRECTED_ICON } from '../components/icons';
import { failedCheckLabel } from './job-row-words';
import { SuggestedMark } from './SuggestedMark';
import { MadeUpMark } from '../components/MadeUpTag';

/** The invoice columns after Checks, for the header and the grid's column count. */
export const INVOICE_FIGURE_COLUMNS = ['number', 'vendor', 'total'] as const;

/**
 * An invoice's checks in one cell: "⚠ Net + VAT = gross" (the failed ones, waiting for review),
 * "✓ Passed", or the review's decision ("✓ Accepted despite: …", "✗ Rejected"); the words carry
 * it, not the colour. A decided invoice is no longer flagged: the Needs review filter agrees. A mark
 * after them when the supplier memory suggests a value for it.
 */
export function ChecksCell({
  failed,
  decision,
  suggested,
}: {
  failed: string[] | null;
  decision: JobRowView['reviewDecision'];
  suggested: SuggestedInList | null;
}) {
  const { t } = useTranslation('jobs');
  if (failed === null) return <div role="gridcell" className="job-grid__cell job-grid__checks" />;
  const mark = suggested ? <SuggestedMark suggested={suggested} /> : null;
  const names = failed.map(failedCheckLabel).join(', ');
  if (decision !== null) {
    const words = decision === 'rejected' ? t('table.rejected') : failed.length === 0 ? t('table.accepted') : t('table.acceptedDespite', { names });
    return (
      <div role="gridcell" className="job-grid__cell job-grid__checks" title={words}>
        <span className={`check-flag check-flag--${decision}`}>
          <span aria-hidden="true">{decision === 'rejected' ? '✗ ' : '✓ '}</span>
          {words}
        </span>
        {mark}
      </div>
    );
  }
  if (failed.length === 0) {
    return (
      <div role="gridcell" className="job-grid__cell job-grid__checks" title={t('table.allPassed')}>
        <span className="check-flag check-flag--ok">
          <span aria-hidden="true">✓ </span>
          {t('table.passed')}
        </span>
        {mark}
      </div>
    );
  }
  return (
    <div role="gridcell" className="job-grid__cell job-grid__checks" title={t('table.needsReviewTitle', { names })}>
      {/* Before the flag, which may be cut short by the cell. */}
      {mark}
      <span className="check-flag check-flag--failed">
        <span aria-hidden="true">⚠ </span>
        <span className="visually-hidden">{t('table.needsReviewPrefix')}</span>
        {names}
      </span>
    </div>
  );
}

/** One figure: its value (whole in the title where the cell cuts it), and under it "corrected" with what was read. */
function FigureCell({ value, read, note, className }: { value: string; read: string | null; note?: ReactNode; className: string }) {
  const { t } = useTranslation('jobs');
  const corrected = read !== null && read !== value;
  const readWords = read === '' ? t('table.readNothing') : (read ?? '');
  const title = corrected ? t('table.correctedTitle', { value, read: readWords }) : value;
  return (
    <div role="gridcell" className={`job-grid__cell job-grid__figure ${className}`} title={title || undefined}>
      <span className="job-grid__value">{value}</span>
      {corrected || note ? (
        <span className="job-grid__note">
          {note}
          {corrected ? (
            <span className="job-grid__corrected">
              <Icon icon={CORRECTED_ICON} size={12} />
              {t('table.corrected')}
              <span className="visually-hidden"> {t('table.correctedRead', { read: readWords })}</span>
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}

/** A total; a long one may wrap before its currency (the locale joins them with a no-break space), never inside the amount. */
const money = (gross: number | null, currency: string | null): string => (gross === null ? '' : formatInvoiceMoney(gross, currency).replace(/\u00a0/g, ' '));

/**
 * Number, vendor and total of a succeeded invoice; anything else (a failed or waiting job) says its
 * error or hold across the three columns.
 */
export function InvoiceFigureCells({ row, other }: { row: JobRowView; other: { text: string; className: string } | null }) {
  const { t } = useTranslation('jobs');
  if (other !== null) {
    return (
      <div role="gridcell" className={`job-grid__cell job-grid__span3 ${other.className}`} title={other.text || undefined}>
        {other.text}
      </div>
    );
  }
  const inv = row.invoice;
  if (inv === null) {
    // A succeeded item that is no invoice (nothing of one was read): the engine's line says what it is.
    return (
      <div role="gridcell" className="job-grid__cell job-grid__span3 job-grid__result" title={row.result ?? undefined}>
        {row.result ?? ''}
      </div>
    );
  }
  const read = inv.read;
  // Under the number: where it came from (an e-invoice's XML, or made up by the sandbox).
  const origin =
    inv.fromEInvoice || row.madeUp ? (
      <>
        {row.madeUp ? <MadeUpMark /> : null}
        {inv.fromEInvoice ? <span title={t('readFromEInvoice')}>{t('table.eInvoice')}</span> : null}
      </>
    ) : undefined;
  return (
    <>
      <FigureCell value={inv.number ?? ''} read={read ? (read.number ?? '') : null} note={origin} className="job-grid__number" />
      <FigureCell value={inv.vendor ?? ''} read={read ? (read.vendor ?? '') : null} className="job-grid__vendor" />
      <FigureCell value={money(inv.gross, inv.currency)} read={read ? money(read.gross, read.currency) : null} className="job-grid__total num" />
    </>
  );
}
