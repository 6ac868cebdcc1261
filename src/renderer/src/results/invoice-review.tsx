// An invoice's review in the job dialog: every field and line editable, the checks re-run on the
// corrected invoice as the user types (the same check code as the engine's, shared), the supplier
// memory's suggestions beside their field with Apply, and Accept / Reject, recorded with the OS user.
import { useContext, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { JobDetail } from '../../../shared/contract';
import { NOTHING_READ, type Invoice } from '../../../shared/invoices/invoice';
import { applyEdit, changedFields, fieldText, HEAD_FIELDS, recheckDraft } from '../../../shared/invoices/invoice-corrections';
import { type InvoiceReviewView, type SupplierSuggestion } from '../../../shared/invoices/review-decision';
import { client, errorMessage } from '../client';
import { RpcFailure } from '../transport';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatDateTime } from '../format/time';
import { useBatchesStore } from '../store/batches-store';
import { reviewSource } from '../jobs/job-row-words';
import { toast } from '../components/toast-store';
import { i18n } from '../i18n';
import { InvoiceChecks } from './invoice-view';
import { isDayField, isMoneyField, readFieldValue, readTypedField, shownFieldValue } from './invoice-field-locale';
import { correctionWords, typedProblemWords } from './correction-words';
import { dayPattern, dayPatternWords } from '../format/date-input';
import { JobDialogContext } from '../jobs/job-dialog-slots';
import { reviewStatus } from './review-status';
import './invoice-review.css';

/** Told when a review is saved, so the dialog and the batch's counts read again. */
export const REVIEW_SAVED_EVENT = 'batchdesk:review-saved';

/**
 * The draft: every edit that can stand applied in order; the reason of each that cannot, by field,
 * in the window's words. Amounts and days are read by the window's locale first.
 */
function applyDrafts(base: Invoice, drafts: Record<string, string>): { invoice: Invoice; problems: Record<string, string> } {
  let invoice = base;
  const problems: Record<string, string> = {};
  for (const [field, value] of Object.entries(drafts)) {
    const typed = readTypedField(field, value);
    if (!typed.ok) {
      problems[field] = typedProblemWords(field, typed.problem);
      continue;
    }
    const r = applyEdit(invoice, field, typed.canonical);
    if (r.ok) invoice = r.invoice;
    else problems[field] = correctionWords(field, value, r.problem);
  }
  return { invoice, problems };
}

/** A day field's placeholder: the order the window reads it in ("TT.MM.JJJJ"), or ISO where it shows days so. */
function dayPlaceholder(): string {
  const { order, separator } = dayPattern();
  return shownFieldValue('issueDate', '2026-12-31') === '2026-12-31' ? dayPatternWords(['year', 'month', 'day'], '-') : dayPatternWords(order, separator);
}

function Decision({ view }: { view: InvoiceReviewView }) {
  const { t } = useTranslation('results');
  if (view.decision === null) return null;
  const who = view.decidedBy ?? t('review.unknownUser');
  const accepted = view.decision === 'accepted';
  const decided =
    view.decidedAt !== null
      ? t(accepted ? 'review.acceptedOn' : 'review.rejectedOn', { who, when: formatDateTime(new Date(view.decidedAt).toISOString()) })
      : t(accepted ? 'review.accepted' : 'review.rejected', { who });
  return (
    <p className={`invoice-review__decision invoice-review__decision--${view.decision}`} role="status">
      {decided}
      {view.note ? ` · ${view.note}` : ''}
    </p>
  );
}

interface FieldProps {
  field: string;
  label: string;
  value: string;
  read: string | null;
  problem: string | undefined;
  suggestion: SupplierSuggestion | undefined;
  onChange: (value: string) => void;
  className?: string;
}

function FieldInput({ field, label, value, read, problem, suggestion, onChange, className }: FieldProps) {
  const { t } = useTranslation('results');
  const errId = `review-err-${field}`;
  return (
    <>
      <input
        className={`invoice-review__input${className ? ` ${className}` : ''}`}
        aria-label={label}
        value={value}
        {...(isDayField(field) ? { placeholder: dayPlaceholder() } : {})}
        {...(isMoneyField(field) ? { inputMode: 'decimal' as const } : {})}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errId : undefined}
        onChange={(e) => onChange(e.target.value)}
        data-field={field}
      />
      {read !== null ? <span className="invoice-review__read muted">{read === '' ? t('review.readNothing') : t('review.read', { value: read })}</span> : null}
      {problem ? (
        <span id={errId} className="invoice-review__problem" role="alert">
          {problem}
        </span>
      ) : null}
      {suggestion && suggestion.value !== value ? (
        <span className="invoice-review__suggestion">
          {t('review.suggested', { what: t(`suggestedField.${suggestion.field}`) })} <strong>{suggestion.value}</strong>{' '}
          <span className="muted">{t('review.suggestionSource', { source: reviewSource(suggestion) })}</span>{' '}
          <button
            type="button"
            onClick={() => onChange(suggestion.value)}
            aria-label={t('review.applyLabel', { what: t(`suggestedField.${suggestion.field}`), value: suggestion.value })}
          >
            {t('review.apply')}
          </button>
        </span>
      ) : null}
    </>
  );
}

export function InvoiceReviewPanel({ job }: { job: JobDetail }) {
  const { t } = useTranslation('results');
  const [view, setView] = useState<InvoiceReviewView | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    setView(null);
    setDrafts({});
    setNote(null);
    client()
      .call('reviews.get', { jobId: job.id })
      .then((v) => live && setView(v))
      // A job without a review is said in the window's language; other failures as they come.
      .catch((e: unknown) => live && setError(e instanceof RpcFailure && e.code === 'not_found' ? t('review.none') : errorMessage(e)));
    return () => {
      live = false;
    };
  }, [job.id, t]);

  const base = view ? (view.corrected ?? view.original ?? NOTHING_READ) : NOTHING_READ;
  const { invoice: draft, problems } = useMemo(() => applyDrafts(base, drafts), [base, drafts]);
  const live = useMemo(() => (view ? recheckDraft(draft, base, view.checks) : null), [draft, base, view]);
  const dirty = changedFields(base, draft).length > 0;
  const { footer, setReviewStatus } = useContext(JobDialogContext);
  // The dialog's header says what is true now: typed and not saved, corrected and waiting for Accept, decided.
  const status =
    view && live
      ? reviewStatus({ needsReview: view.needsReview, decision: view.decision, corrected: view.corrected !== null, checks: live.checks, dirty })
      : null;
  useEffect(() => {
    if (view) setReviewStatus(status);
  }, [view, status, setReviewStatus]);
  useEffect(() => () => setReviewStatus(null), [setReviewStatus]);

  if (!view || !live) {
    return (
      <>
        <ErrorAlert message={error} />
        {job.review ? <InvoiceChecks review={job.review} /> : null}
      </>
    );
  }
  const read = view.original ?? NOTHING_READ;
  const invalid = Object.keys(problems).length > 0;
  const noteNow = note ?? view.note ?? '';
  const suggestionFor = (field: string): SupplierSuggestion | undefined => view.suggestions.find((s) => s.edit === field);
  const set = (field: string) => (value: string) => setDrafts((d) => ({ ...d, [field]: value }));
  const input = (field: string, label: string, className?: string) => {
    const corrected = fieldText(read, field) !== fieldText(draft, field);
    return (
      <FieldInput
        field={field}
        label={label}
        value={drafts[field] ?? shownFieldValue(field, fieldText(base, field))}
        read={corrected ? readFieldValue(field, fieldText(read, field)) : null}
        problem={problems[field]}
        suggestion={suggestionFor(field)}
        onChange={set(field)}
        {...(className ? { className } : {})}
      />
    );
  };

  const save = async (decision?: 'accepted' | 'rejected'): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const saved = await client().call('reviews.save', {
        jobId: job.id,
        invoice: draft,
        ...(decision ? { decision } : {}),
        ...(note !== null ? { note } : {}),
      });
      setView(saved);
      setDrafts({});
      setNote(null);
      // Said where the user looks next too: the dialog may close before the line above is read.
      const item = saved.source.split(/[\\/]/).pop() ?? saved.source;
      toast(
        i18n.t(decision === 'accepted' ? 'common:toast.reviewAccepted' : decision === 'rejected' ? 'common:toast.reviewRejected' : 'common:toast.reviewSaved', {
          item,
        }),
      );
      await useBatchesStore
        .getState()
        .fetchOne(saved.batchId)
        .catch(() => undefined);
      window.dispatchEvent(new CustomEvent(REVIEW_SAVED_EVENT, { detail: { jobId: job.id, batchId: saved.batchId } }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const panel = (
    <section className="invoice-review" aria-label={t('review.label')}>
      <InvoiceChecks review={live} />
      <Decision view={view} />
      {view.suggestions.length > 0 ? <p className="muted invoice-review__memory">{t('review.memory')}</p> : null}
      <table className="job-detail__table invoice-review__fields">
        <caption>{t('review.fields')}</caption>
        <tbody>
          {HEAD_FIELDS.map((f) => (
            <tr key={f}>
              <th scope="row">{t(`field.${f}`)}</th>
              <td>{input(f, t(`field.${f}`))}</td>
            </tr>
          ))}
          {draft.vat.map((_, i) => (
            <tr key={`vat${i}`}>
              <th scope="row">{t('review.vatLine', { n: i + 1 })}</th>
              <td className="invoice-review__pair">
                {input(`vat.${i + 1}.rate`, t('review.vatLineRate', { n: i + 1 }), 'invoice-review__input--short')}
                {input(`vat.${i + 1}.amount`, t('review.vatLineAmount', { n: i + 1 }), 'invoice-review__input--short')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {draft.lines.length > 0 ? (
        <table className="job-detail__table invoice-review__lines">
          <caption>{t('review.lines', { n: draft.lines.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('invoice.description')}</th>
              <th scope="col">{t('invoice.quantity')}</th>
              <th scope="col">{t('invoice.unitPrice')}</th>
              <th scope="col">{t('invoice.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {draft.lines.map((_, i) => (
              <tr key={i}>
                <td>{input(`line.${i + 1}.description`, t('review.lineDescription', { n: i + 1 }))}</td>
                <td>{input(`line.${i + 1}.quantity`, t('review.lineQuantity', { n: i + 1 }), 'invoice-review__input--short')}</td>
                <td>{input(`line.${i + 1}.unitPrice`, t('review.lineUnitPrice', { n: i + 1 }), 'invoice-review__input--short')}</td>
                <td>{input(`line.${i + 1}.amount`, t('review.lineAmount', { n: i + 1 }), 'invoice-review__input--short')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <label className="invoice-review__note">
        {t('review.note')}
        <input value={noteNow} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
      </label>
    </section>
  );
  // Accept and Reject stay in view in the dialog's footer, wherever the dialog is scrolled to.
  const actions = (
    <div className="invoice-review__bar">
      <ErrorAlert message={error} />
      <div className="invoice-review__actions" role="group" aria-label={t('review.actions')}>
        <button type="button" onClick={() => void save('accepted')} disabled={busy || invalid} className="primary">
          {t('review.accept')}
        </button>
        <button type="button" onClick={() => void save('rejected')} disabled={busy || invalid}>
          {t('review.reject')}
        </button>
        <button type="button" onClick={() => void save()} disabled={busy || invalid || (!dirty && note === null)}>
          {t('review.save')}
        </button>
        <button type="button" onClick={() => setDrafts({})} disabled={busy || Object.keys(drafts).length === 0}>
          {t('review.undo')}
        </button>
        {invalid ? <span className="invoice-review__problem">{t('review.correctFirst')}</span> : null}
      </div>
    </div>
  );
  return (
    <>
      {panel}
      {footer ? createPortal(actions, footer) : actions}
    </>
  );
}
