// An invoice as OCR read it (fields, line items, VAT) and the checks Batchdesk ran on it.
import { CHECK_LABELS, formatAmount, INVOICE_CHECKS, type Invoice, type InvoiceReview } from '../../../shared/invoices/invoice';
import './invoice-view.css';

/** A check's name for people ("Net + VAT = gross"); an unknown name as it is. */
export function checkLabel(name: string): string {
  const known = INVOICE_CHECKS.find((c) => c === name);
  return known ? CHECK_LABELS[known] : name;
}

function Missing() {
  return <span className="muted">not found</span>;
}

function amount(a: number | null, currency: string | null) {
  return a === null ? <Missing /> : <span className="tabular">{`${formatAmount(a)}${currency ? ` ${currency}` : ''}`}</span>;
}

export function InvoiceChecks({ review }: { review: InvoiceReview }) {
  const failed = review.checks.filter((c) => c.ok === false).length;
  return (
    <section className={`invoice-checks${review.needsReview ? ' invoice-checks--review' : ''}`} aria-label="Invoice checks">
      <h4>{review.needsReview ? `Needs review: ${failed} check${failed === 1 ? '' : 's'} failed` : 'Checks passed'}</h4>
      <ul className="invoice-checks__list">
        {review.checks.map((c) => (
          <li key={c.check} className={`invoice-check invoice-check--${c.ok === null ? 'skipped' : c.ok ? 'ok' : 'failed'}`}>
            <span className="invoice-check__mark" aria-hidden="true">
              {c.ok === null ? '–' : c.ok ? '✓' : '✗'}
            </span>
            <span className="invoice-check__name">{CHECK_LABELS[c.check]}</span>
            <span className="sr-only">{c.ok === null ? ' (not checked)' : c.ok ? ' (passed)' : ' (failed)'}</span>
            <span className="invoice-check__detail muted">{c.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function InvoiceView({ invoice }: { invoice: Invoice | null }) {
  if (!invoice) return <p className="muted">No invoice fields were read from this document.</p>;
  const cur = invoice.currency;
  return (
    <>
      <table className="job-detail__table">
        <caption>Extracted fields</caption>
        <tbody>
          <tr>
            <th scope="row">Vendor</th>
            <td>{invoice.vendor ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">Vendor VAT id</th>
            <td className="mono">
              {invoice.vendorVatId ?? <Missing />}
              {invoice.country ? <span className="muted"> ({invoice.country})</span> : null}
            </td>
          </tr>
          <tr>
            <th scope="row">Bill to</th>
            <td>{invoice.buyer ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">Invoice number</th>
            <td className="mono">{invoice.invoiceNumber ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">Issue date</th>
            <td>{invoice.issueDate ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">Due date</th>
            <td>{invoice.dueDate ?? <Missing />}</td>
          </tr>
          <tr>
            <th scope="row">Net</th>
            <td>{amount(invoice.net, cur)}</td>
          </tr>
          {invoice.vat.length === 0 ? (
            <tr>
              <th scope="row">VAT</th>
              <td>
                <Missing />
              </td>
            </tr>
          ) : (
            invoice.vat.map((v, i) => (
              <tr key={i}>
                <th scope="row">VAT {v.rate} %</th>
                <td>{amount(v.amount, cur)}</td>
              </tr>
            ))
          )}
          <tr>
            <th scope="row">Gross</th>
            <td>{amount(invoice.gross, cur)}</td>
          </tr>
        </tbody>
      </table>
      {invoice.lines.length > 0 ? (
        <table className="job-detail__table invoice-lines">
          <caption>Line items ({invoice.lines.length})</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className="num">
                Qty
              </th>
              <th scope="col" className="num">
                Unit price
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.description}</td>
                <td className="num tabular">{l.quantity ?? '—'}</td>
                <td className="num tabular">{l.unitPrice === null ? '—' : formatAmount(l.unitPrice)}</td>
                <td className="num tabular">{l.amount === null ? '—' : formatAmount(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
