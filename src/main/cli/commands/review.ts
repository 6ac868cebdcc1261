// review <job-id> [--set FIELD=VALUE]... [--accept|--reject] [--note TEXT] | review --list <batch-id>:
// an invoice corrected and decided on the command line, as in the window's job dialog; the checks
// run again on the corrected invoice and are printed, with the supplier memory's suggestions.
import { userInfo } from 'node:os';
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { reviewSpec } from '../specs/review';
import { openCliDesk } from '../desk';
import { localTime } from '../format';
import type { Io } from '../io';
import { UserError } from '../../engine/failures';
import { CHECK_LABELS, formatAmount, type Invoice } from '../../../shared/invoices/invoice';
import { HEAD_FIELDS, fieldText } from '../../../shared/invoices/invoice-corrections';
import { SUGGESTED_LABELS, suggestionSource, type InvoiceReviewView } from '../../../shared/invoices/review-decision';
import { shellWord } from '../../engine/shell-word';

/** "gross=769.20" -> the field and its value; the value may itself hold "=". */
function editOf(raw: string): { field: string; value: string } {
  const at = raw.indexOf('=');
  if (at <= 0) throw new UsageError(`--set ${raw}: write FIELD=VALUE, e.g. --set gross=769.20 (an empty VALUE clears the field).`);
  return { field: raw.slice(0, at).trim(), value: raw.slice(at + 1) };
}

function decisionWords(r: InvoiceReviewView): string {
  if (r.decision === null) return r.needsReview ? 'Needs review: not decided yet (--accept or --reject)' : 'Checks passed; no decision needed';
  const who = `${r.decidedBy ?? 'unknown user'}${r.decidedAt === null ? '' : ` on ${localTime(r.decidedAt)}`}`;
  return `${r.decision === 'accepted' ? 'Accepted' : 'Rejected'} by ${who}`;
}

/** The invoice as it stands, each corrected field with what was read. */
function invoiceLines(r: InvoiceReviewView): string[] {
  const inv: Invoice | null = r.corrected ?? r.original;
  if (!inv) return ['  (no invoice fields were read; --set gives them)'];
  const read = r.original;
  const changed = new Set(r.changed);
  const row = (label: string, field: string): string => {
    const now = fieldText(inv, field);
    const was = changed.has(field) ? `   (read: ${read ? fieldText(read, field) || 'nothing' : 'nothing'})` : '';
    return `  ${label.padEnd(14)} ${now === '' ? '-' : now}${was}`;
  };
  const out = HEAD_FIELDS.filter((f) => f !== 'iban' || inv.iban != null || changed.has('iban')).map((f) => row(f, f));
  inv.vat.forEach((_, i) => {
    out.push(row(`vat.${i + 1}.rate`, `vat.${i + 1}.rate`), row(`vat.${i + 1}.amount`, `vat.${i + 1}.amount`));
  });
  inv.lines.forEach((l, i) => {
    const n = i + 1;
    const money = (a: number | null): string => (a === null ? '-' : formatAmount(a, a % 100 === 0 ? 2 : 4));
    const edited = [...changed].some((f) => f.startsWith(`line.${n}.`));
    out.push(
      `  line.${n}: ${l.description || '(no description)'}; ${l.quantity ?? '-'} x ${money(l.unitPrice)} = ${money(l.amount)}${edited ? '   (corrected)' : ''}`,
    );
  });
  return out;
}

function printReview(r: InvoiceReviewView, io: Io): void {
  const lines = [
    `Job ${r.jobId}, item ${r.item} of batch ${r.batchId}: ${r.source}`,
    decisionWords(r),
    ...(r.note ? [`Note: ${r.note}`] : []),
    r.corrected ? `Invoice as corrected (${r.changed.length} field(s) changed), by the names --set takes:` : 'Invoice as read, by the names --set takes:',
    ...invoiceLines(r),
    'Checks:',
    ...r.checks.map((c) => `  ${c.ok === null ? '-' : c.ok ? '✓' : '✗'} ${CHECK_LABELS[c.check]}: ${c.detail}`),
  ];
  if (r.suggestions.length > 0) {
    lines.push('Suggested by the supplier memory (not applied; --set applies one):');
    for (const s of r.suggestions)
      lines.push(`  ${SUGGESTED_LABELS[s.field]}: ${s.value} (${suggestionSource(s)})   --set ${shellWord(`${s.edit}=${s.value}`)}`);
  }
  io.stdout.write(io.carry(`${lines.join('\n')}\n`));
}

export const reviewCommand = bindCommand(reviewSpec, async ({ values, positionals }, io) => {
  const listing = values.list !== undefined;
  if (listing && (positionals.length > 0 || values.set || values.accept || values.reject || values.note !== undefined))
    throw new UsageError('review --list BATCH only lists; to correct or decide one, `batchdesk review <job-id> --set ... --accept`.');
  if (!listing && positionals.length !== 1) throw new UsageError('review takes one job id (`batchdesk review --list <batch-id>` lists them).');
  if (values.accept && values.reject) throw new UsageError('review takes --accept or --reject, not both.');
  const jobId = listing ? 0 : Number(positionals[0]);
  if (!listing && !(Number.isSafeInteger(jobId) && jobId > 0))
    throw new UsageError(`"${positionals[0]}" is not a job id (a whole number; \`batchdesk review --list <batch-id>\` lists them).`);
  const edits = (values.set ?? []).map(editOf);
  const desk = await openCliDesk(values, io, { read: !listing && edits.length === 0 && !values.accept && !values.reject && values.note === undefined });
  try {
    if (listing) {
      const id = await desk.control.resolveBatchId(values.list ?? '');
      const queue = await desk.reviews.queue(id);
      const counts = await desk.reviews.counts(id);
      if (values.json) io.stdout.write(`${JSON.stringify({ batch: id, counts, needs_review: queue }, null, 2)}\n`);
      else if (queue.length === 0)
        io.stdout.write(
          `No invoice of batch ${id} needs review (${counts.invoices} invoice(s): ${counts.passed} passed, ${counts.accepted} accepted, ${counts.rejected} rejected).\n`,
        );
      else {
        const out = [`${queue.length} invoice(s) of batch ${id} need review:`];
        for (const q of queue) {
          out.push(`  job ${q.jobId}  item ${q.item}  ${q.source}${q.corrected ? '  (corrected, not decided)' : ''}`);
          for (const c of q.failed) out.push(`      ✗ ${CHECK_LABELS[c.check]}: ${c.detail}`);
        }
        out.push(`Correct and decide one: \`batchdesk review <job-id> --set FIELD=VALUE --accept${desk.storeFlag}\` (or --reject).`);
        io.stdout.write(io.carry(`${out.join('\n')}\n`));
      }
      return EXIT.ok;
    }
    const changing = edits.length > 0 || values.accept === true || values.reject === true || values.note !== undefined;
    let review: InvoiceReviewView;
    try {
      review = changing
        ? await desk.reviews.save(jobId, {
            edits,
            ...(values.accept ? { decision: 'accepted' as const } : values.reject ? { decision: 'rejected' as const } : {}),
            ...(values.note !== undefined ? { note: values.note } : {}),
            by: userInfo().username,
          })
        : await desk.reviews.view(jobId);
    } catch (e) {
      // A value that cannot stand or a job with no invoice: said as a usage mistake (exit 2), nothing saved.
      if (e instanceof UserError) throw new UsageError(e.message);
      throw e;
    }
    if (values.json) io.stdout.write(`${JSON.stringify(review, null, 2)}\n`);
    else printReview(review, io);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
});
