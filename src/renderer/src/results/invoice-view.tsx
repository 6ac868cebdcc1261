// An invoice as OCR read it (fields, line items, VAT) and the checks Batchdesk ran on it.
import { failedCheckLabel } from '../jobs/job-row-words';
import { invoiceCheckDetail } from './check-detail-words';
import { useTranslation } from 'react-i18next';
import { INVOICE_CHECKS, type Invoice, type InvoiceReview } from '../../../shared/invoices/invoice';
import { i18n } from '../i18n';
import { formatDay, formatDecimal, formatInvoiceMoney } from './local-numbers';
import './invoice-view.css';

/** A check's name for people ("Net + VAT = gross"); an unknown name as it is. */
export function checkLabel(name: string): string {
  const known = INVOICE_CHECKS.find((c) => c === name);
  return known ? i18n.t(`results:check.${known}`) : name;
}

function Missing() {
  const { t } = useTranslation('results');
  return <span className="muted">{t('invoice.notFound')}</span>;
}

function amount(a: number | null, currency: string | null) {
  return a === null ? <Missing /> : <span className="tabular">{formatInvoiceMoney(a, currency)}</span>;
}

export function InvoiceChecks({ review }: { review: InvoiceReview }) {
  const { t } = useTranslation('results');
  const failed = review.checks.filter((c) => c.ok === false).length;
  return (
    <section className={`invoice-checks${review.needsReview ? ' invoice-checks--review' : ''}`} aria-label={t('checks.label')}>
      <h4>{review.needsReview ? t('checks.needsReview', { count: failed, n: failed }) : t('checks.passed')}</h4>
      <ul className="invoice-checks__list">
        {review.checks.map((c) => (
          <li key={c.check} className={`invoice-check invoice-check--${c.ok === null ? 'skipped' : c.ok ? 'ok' : 'failed'}`}>
            <span className="invoice-check__mark" aria-hidden="true">
              {c.ok === null ? '–' : c.ok ? '✓' : '✗'}
            </span>
            {/* A failed check is named by what failed, as the job table names it; the others by what they check. */}
            <span className="invoice-check__name">{c.ok === false ? failedCheckLabel(c.check) : t(`check.${c.check}`)}</span>
            <span className="sr-only">{c.ok === null ? t('checks.notChecked') : c.ok ? t('checks.ok') : t('checks.failed')}</span>
            <span className="invoice-check__detail muted">{invoiceCheckDetail(c)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function InvoiceView({ invoice }: { invoice: Invoice | null }) {
  const { t } = useTranslation('results');
  if (!invoice) return <p className="muted">{t('invoice.nothingRead')}</p>;
  const cur = invoice.currency;
  return (
    <>
      <table className="job-detail__table">
        <caption>{t('invoice.extracted')}</caption>
        <tbody>
          <tr>
            <th scope="row">{t('field.vendor')}</th>
            <td>{invoice.vendor ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">{t('field.vendorVatId')}</th>
            <td className="mono">
              {invoice.vendorVatId ?? <Missing />}
              {invoice.country ? <span className="muted"> ({invoice.country})</span> : null}
            </td>
          </tr>
          <tr>
            <th scope="row">{t('field.buyer')}</th>
            <td>{invoice.buyer ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">{t('field.invoiceNumber')}</th>
            <td className="mono">{invoice.invoiceNumber ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">{t('field.issueDate')}</th>
            <td>{invoice.issueDate ? formatDay(invoice.issueDate) : <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">{t('field.dueDate')}</th>
            <td>{invoice.dueDate ? formatDay(invoice.dueDate) : <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">{t('field.net')}</th>
            <td>{amount(invoice.net, cur)}</td>
          </tr>
          {invoice.vat.length === 0 ? (
            <tr>
              <th scope="row">{t('invoice.vat')}</th>
              <td>
                <Missing />
              </td>
            </tr>
          ) : (
            invoice.vat.map((v, i) => (
              <tr key={i}>
                <th scope="row">{t('invoice.vatRate', { rate: formatDecimal(v.rate, 2) })}</th>
                <td>{amount(v.amount, cur)}</td>
              </tr>
            ))
          )}
          <tr>
            <th scope="row">{t('field.gross')}</th>
            <td>{amount(invoice.gross, cur)}</td>
          </tr>
        </tbody>
      </table>
      {invoice.lines.length > 0 ? (
        <table className="job-detail__table invoice-lines">
          <caption>{t('invoice.lineItems', { n: invoice.lines.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('invoice.description')}</th>
              <th scope="col" className="num">
                {t('invoice.quantity')}
              </th>
              <th scope="col" className="num">
                {t('invoice.unitPrice')}
              </th>
              <th scope="col" className="num">
                {t('invoice.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.description}</td>
                <td className="num tabular">{l.quantity === null ? '—' : formatDecimal(l.quantity, 4)}</td>
                <td className="num tabular">{l.unitPrice === null ? '—' : formatInvoiceMoney(l.unitPrice, cur)}</td>
                <td className="num tabular">{l.amount === null ? '—' : formatInvoiceMoney(l.amount, cur)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
