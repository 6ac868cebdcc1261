// Every refusal the engine gives as a code is said in both of the window's languages, naming the
// window's controls and never a shell command; an RPC failure that carries one shows those words.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { ExportKind, REFUSAL_CODES, type Refusal } from '../../../src/shared/refusals';
import { DisplayBatchStatus } from '../../../src/shared/domain';
import { refusalWords } from '../../../src/renderer/src/components/refusal-words';
import { RpcFailure } from '../../../src/renderer/src/transport/client';
import { ISSUE_CAUSES } from '../../../src/shared/request-issue';

type Code = Refusal['code'];

/** One refusal of every code: the compiler asks for a new code's, the test below for its words. */
const REFUSALS: { [C in Code]: Extract<Refusal, { code: C }> } = {
  team_compare: { code: 'team_compare' },
  team_files: { code: 'team_files', capability: 'ocr' },
  team_follow_up: { code: 'team_follow_up' },
  local_batch_in_team: { code: 'local_batch_in_team', batch: 'b-12' },
  no_invoice_to_review: { code: 'no_invoice_to_review', job: 17 },
  budget_spent: { code: 'budget_spent', batch: 'b-12', budget: 50_000, spent: 81_900, enough: 82_000 },
  schedule_started: { code: 'schedule_started', batch: 'b-12' },
  save_needs_desktop: { code: 'save_needs_desktop' },
  no_batch: { code: 'no_batch', batch: 'b-12' },
  batch_ambiguous: { code: 'batch_ambiguous', prefix: 'b-1' },
  no_job: { code: 'no_job', job: 17 },
  no_comparison: { code: 'no_comparison', group: 'c-3' },
  no_key: { code: 'no_key', key: 'k-1' },
  batch_cancelled: { code: 'batch_cancelled', batch: 'b-12', action: 'retry' },
  schedule_past: { code: 'schedule_past', batch: 'b-12' },
  nothing_to_cancel: { code: 'nothing_to_cancel', batch: 'b-12', status: 'done' },
  nothing_succeeded: { code: 'nothing_succeeded', name: 'Calls 26 Nov' },
  export_format: { code: 'export_format', format: 'ubl', capability: 'transcribe' },
  show_needs_desktop: { code: 'show_needs_desktop' },
  no_source_file: { code: 'no_source_file', job: 17 },
  resend_gone: { code: 'resend_gone', path: 'scans/a.pdf' },
  compare_side_effect: { code: 'compare_side_effect', capability: 'channel', tiers: 2 },
  compare_empty: { code: 'compare_empty', batch: 'b-12' },
  resume_needs_key: { code: 'resume_needs_key', batch: 'b-12', credential: 'channel' },
  path_not_uploaded: { code: 'path_not_uploaded', path: '/etc/passwd' },
  rejected_rows_unreadable: { code: 'rejected_rows_unreadable', source: 'messages.csv' },
  source_missing: { code: 'source_missing', job: 17 },
  recipient_unreadable: { code: 'recipient_unreadable', value: '12', kind: 'phone' },
  optout_file: { code: 'optout_file', path: 'stop.csv', why: 'empty' },
  forget_unreadable: { code: 'forget_unreadable', value: 'ab' },
  unknown_rate_item: { code: 'unknown_rate_item', item: 'fax' },
  api_url_invalid: { code: 'api_url_invalid', url: 'ftp://x' },
  phone_country_unknown: { code: 'phone_country_unknown', country: 'XX' },
  watch_capability: { code: 'watch_capability', capability: 'channel' },
  watch_folder: { code: 'watch_folder', dir: '/scans', why: 'nested', other: '/scans/in' },
  watch_step: { code: 'watch_step', step: 2, capability: 'tts', after: 'ocr' },
  no_watch: { code: 'no_watch', watch: 'w1' },
  key_refused: { code: 'key_refused', why: 'label' },
  key_address_unusable: { code: 'key_address_unusable', label: 'acme', credential: 'api' },
  no_key_labelled: { code: 'no_key_labelled', label: 'acme' },
  key_wrong_kind: { code: 'key_wrong_kind', label: 'acme', credential: 'channel' },
  folder_unwritable: { code: 'folder_unwritable', path: '/out/a', why: 'permission', written: 1200 },
  search_empty: { code: 'search_empty' },
  search_too_long: { code: 'search_too_long', length: 1234, limit: 500 },
  meaning_filter_embeddings: { code: 'meaning_filter_embeddings', batch: 'b-13', parent: 'b-12' },
  meaning_nothing_embedded: { code: 'meaning_nothing_embedded' },
  meaning_index_waiting: { code: 'meaning_index_waiting', batch: 'b-13', name: 'Embeddings of calls', paused: true },
  meaning_batch_not_embedded: { code: 'meaning_batch_not_embedded', batch: 'b-12' },
  meaning_api: { code: 'meaning_api', why: 'refused', status: 503 },
  meaning_dimensions: { code: 'meaning_dimensions', query: 1024, stored: [256] },
  request_invalid: { code: 'request_invalid', issue: { field: 'name', path: ['name'], cause: 'too_long', limit: 200, exclusive: false, rule: null } },
};

/** The codes whose words differ by a figure: every case of it, each said in its own words. */
const VARIANTS: Refusal[] = [
  ...ISSUE_CAUSES.map((cause): Refusal => ({
    code: 'request_invalid',
    issue: { field: 'budget', path: ['budget'], cause, limit: 3, exclusive: false, rule: 'budget' },
  })),
  ...(['retry', 'schedule'] as const).map((action): Refusal => ({ code: 'batch_cancelled', batch: 'b-12', action })),
  ...DisplayBatchStatus.options.map((status): Refusal => ({ code: 'nothing_to_cancel', batch: 'b-12', status })),
  ...ExportKind.options.map((format): Refusal => ({ code: 'export_format', format, capability: 'channel' })),
  ...(['api', 'channel'] as const).map((credential): Refusal => ({ code: 'resume_needs_key', batch: 'b-12', credential })),
  ...(['phone', 'email'] as const).map((kind): Refusal => ({ code: 'recipient_unreadable', value: 'x', kind })),
  ...(['unreadable', 'empty'] as const).map((why): Refusal => ({ code: 'optout_file', path: 'stop.csv', why })),
  ...(['in_the_way', 'permission', 'not_folder', 'error'] as const).map((why): Refusal => ({ code: 'folder_unwritable', path: '/out', why, written: 3 })),
  ...(['too_short', 'whitespace', 'label', 'api_url'] as const).map((why): Refusal => ({ code: 'key_refused', why })),
  ...(['api', 'channel'] as const).flatMap((credential): Refusal[] => [
    { code: 'key_address_unusable', label: 'acme', credential },
    { code: 'key_wrong_kind', label: 'acme', credential },
  ]),
  ...[true, false].map((paused): Refusal => ({ code: 'meaning_index_waiting', batch: 'b-13', name: 'Embeddings', paused })),
  ...(['no_key', 'unreachable', 'refused', 'no_embedding'] as const).map((why): Refusal => ({
    code: 'meaning_api',
    why,
    status: why === 'refused' ? 503 : null,
  })),
  ...(['missing', 'not_folder', 'data_folder', 'watched', 'nested'] as const).map((why): Refusal => ({
    code: 'watch_folder',
    dir: '/scans',
    why,
    other: '/in',
  })),
];

describe('refusals in the window', () => {
  it('has words for every code in English and German, none of them a command to type', () => {
    expect(Object.keys(REFUSALS).sort()).toEqual([...REFUSAL_CODES].sort());
    for (const r of [...Object.values(REFUSALS), ...VARIANTS]) {
      const en = inLanguage('en', 'en-GB', () => refusalWords(r));
      const de = inLanguage('de', 'de-DE', () => refusalWords(r));
      expect(en, r.code).toMatch(/\w/);
      expect(de, r.code).not.toBe(en);
      expect(`${en} ${de}`, r.code).not.toMatch(/\{\{|refusal\.|batchdesk [a-z]|--[a-z]|`/);
    }
  });

  it('says each case of a code by its own words: a subtitle export is not an invoice export, a done batch not a cancelled one', () => {
    const said = (r: Refusal): string => inLanguage('de', 'de-DE', () => refusalWords(r));
    const exportWords = new Set(ExportKind.options.map((format) => said({ code: 'export_format', format, capability: 'channel' })));
    expect(exportWords.size).toBe(4);
    expect(said({ code: 'export_format', format: 'srt', capability: 'channel' })).toMatch(/Untertitel.*„Nachrichten“-Stapel/);
    expect(said({ code: 'nothing_to_cancel', batch: 'b-1', status: 'done_with_failures' })).toMatch(/„Fehlgeschlagene wiederholen“/);
    expect(said({ code: 'nothing_to_cancel', batch: 'b-1', status: 'cancelled' })).toMatch(/schon abgebrochen/);
  });

  it('writes the files written before the refusal the locale way', () => {
    expect(inLanguage('de', 'de-DE', () => refusalWords(REFUSALS.folder_unwritable))).toMatch(/1\.200 Dateien/);
  });

  it('says the search refusals in the locale, each case in its own words', () => {
    const said = (r: Refusal): string => inLanguage('de', 'de-DE', () => refusalWords(r));
    expect(said(REFUSALS.search_too_long)).toMatch(/1\.234 Zeichen.*höchstens 500/);
    const api = new Set((['no_key', 'unreachable', 'refused', 'no_embedding'] as const).map((why) => said({ code: 'meaning_api', why, status: 503 })));
    expect(api.size).toBe(4);
    expect(said({ code: 'meaning_index_waiting', batch: 'b-1', name: 'E', paused: true })).not.toBe(
      said({ code: 'meaning_index_waiting', batch: 'b-1', name: 'E', paused: false }),
    );
    expect(said(REFUSALS.meaning_api)).toMatch(/HTTP 503/);
  });

  it('writes the budget figures the locale way', () => {
    expect(inLanguage('de', 'de-DE', () => refusalWords(REFUSALS.budget_spent))).toMatch(/mindestens 8,20\s€/);
  });

  it("shows the refusal's words instead of the engine's English", () => {
    const english = 'A budget of €5.00 leaves nothing to send: `batchdesk resume b-12 --budget 8.20`.';
    const failure = inLanguage('de', 'de-DE', () => new RpcFailure('invalid_argument', english, REFUSALS.budget_spent));
    expect(failure.message).toMatch(/^Ein Budget von/);
    expect(new RpcFailure('invalid_argument', english).message).toBe(english);
  });
});
