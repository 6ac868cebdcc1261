// A refusal the engine gave as a code (shared/refusals.ts), in the window's language: what the
// window can do instead, named by its own controls, never the command line's command.
import type { ExportKind, Refusal } from '../../../shared/refusals';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { capabilityWords } from '../format/option-words';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { issueWords } from '../format/issue-words';

/** Which words a cancel with nothing left takes: by how the batch stands. */
function cancelCase(status: Extract<Refusal, { code: 'nothing_to_cancel' }>['status']): 'cancelled' | 'done' | 'failures' | 'open' {
  switch (status) {
    case 'cancelled':
      return 'cancelled';
    case 'done':
      return 'done';
    case 'done_with_failures':
      return 'failures';
    case 'pending':
    case 'running':
    case 'paused':
      return 'open';
    default:
      return assertNever(status, 'batch status');
  }
}

/** Which words an export the capability lacks takes: the invoice tables and workbook are one case, the subtitles another. */
function exportCase(format: ExportKind): 'invoices' | 'ubl' | 'cues' | 'files' {
  switch (format) {
    case 'invoices':
    case 'line-items':
    case 'xlsx':
      return 'invoices';
    case 'ubl':
      return 'ubl';
    case 'srt':
    case 'vtt':
      return 'cues';
    case 'files':
      return 'files';
    default:
      return assertNever(format, 'export kind');
  }
}

/** The refusal in the window's words (`lng`: another language than the window's, for the tests). */
export function refusalWords(r: Refusal, lng?: string): string {
  const say = (key: string, values: Record<string, unknown> = {}): string =>
    // Keys built from the closed code union: test/unit/renderer/refusal-words.test.ts says every code in both languages.
    i18n.t(`common:refusal.${key}` as 'common:refusal.team_compare', { ...values, ...(lng ? { lng } : {}) });
  switch (r.code) {
    case 'team_compare':
    case 'team_follow_up':
    case 'save_needs_desktop':
    case 'show_needs_desktop':
      return say(r.code);
    case 'team_files':
      return say('team_files', { what: capabilityWords(r.capability).label });
    case 'local_batch_in_team':
    case 'schedule_started':
    case 'no_batch':
    case 'schedule_past':
    case 'compare_empty':
      return say(r.code, { batch: r.batch });
    case 'no_invoice_to_review':
    case 'no_job':
    case 'no_source_file':
    case 'source_missing':
      return say(r.code, { job: r.job });
    case 'batch_ambiguous':
      return say(r.code, { prefix: r.prefix });
    case 'no_comparison':
      return say(r.code, { group: r.group });
    case 'no_key':
      return say(r.code, { key: r.key });
    case 'batch_cancelled':
      return say(`batch_cancelled_${r.action}`, { batch: r.batch });
    case 'nothing_to_cancel':
      return say(`nothing_to_cancel_${cancelCase(r.status)}`, { batch: r.batch });
    case 'nothing_succeeded':
      return say(r.code, { name: r.name });
    case 'export_format':
      return say(`export_format_${exportCase(r.format)}`, { what: capabilityWords(r.capability).short });
    case 'resend_gone':
    case 'path_not_uploaded':
      return say(r.code, { path: r.path });
    case 'compare_side_effect':
      return say(r.code, { what: capabilityWords(r.capability).short, tiers: r.tiers });
    case 'resume_needs_key':
      return say(`resume_needs_key_${r.credential}`, { batch: r.batch });
    case 'rejected_rows_unreadable':
      return say(r.code, { source: r.source });
    case 'recipient_unreadable':
      return say(`recipient_unreadable_${r.kind}`, { value: r.value });
    case 'optout_file':
      return say(`optout_file_${r.why}`, { path: r.path });
    case 'forget_unreadable':
      return say(r.code, { value: r.value });
    case 'unknown_rate_item':
      return say(r.code, { item: r.item });
    case 'api_url_invalid':
      return say(r.code, { url: r.url });
    case 'phone_country_unknown':
      return say(r.code, { country: r.country });
    case 'watch_capability':
      return say(r.code, { what: capabilityWords(r.capability).short });
    case 'watch_folder':
      return say(`watch_folder_${r.why}`, { dir: r.dir, other: r.other ?? '' });
    case 'watch_step':
      return say(r.code, { step: r.step, what: capabilityWords(r.capability).short, after: capabilityWords(r.after).short });
    case 'no_watch':
      return say(r.code, { watch: r.watch });
    case 'key_refused':
      return say(`key_refused_${r.why}`);
    case 'key_address_unusable':
    case 'key_wrong_kind':
      return say(`${r.code}_${r.credential}`, { label: r.label });
    case 'no_key_labelled':
      return say(r.code, { label: r.label });
    case 'folder_unwritable':
      return say(`folder_unwritable_${r.why}`, { path: r.path, count: r.written, n: formatCount(r.written) });
    case 'budget_spent':
      return say('budget_spent', { batch: r.batch, budget: formatMoney(r.budget), spent: formatMoney(r.spent), enough: formatMoney(r.enough) });
    case 'search_empty':
    case 'meaning_nothing_embedded':
      return say(r.code);
    case 'search_too_long':
      return say(r.code, { length: formatCount(r.length), limit: formatCount(r.limit) });
    case 'meaning_filter_embeddings':
      return say(r.code, { batch: r.batch, parent: r.parent });
    case 'meaning_index_waiting':
      return say(`meaning_index_waiting_${r.paused ? 'paused' : 'unfinished'}`, { batch: r.batch, name: r.name });
    case 'meaning_batch_not_embedded':
      return say(r.code, { batch: r.batch });
    case 'meaning_api':
      return say(`meaning_api_${r.why}`, { status: r.status ?? '' });
    case 'meaning_dimensions':
      return say(r.code, { query: formatCount(r.query), stored: r.stored.map(formatCount).join(', ') });
    case 'request_invalid':
      return issueWords(r.issue, lng);
    default:
      return assertNever(r, 'refusal');
  }
}
