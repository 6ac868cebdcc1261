// Why a succeeded item gave no file to "Save results to folder", in the window's language, from
// the engine's code (shared/export-problems.ts); without a code the engine's English is shown.
import type { ExportProblem } from '../../../shared/export-problems';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { formatCount } from '../format/time';

/** The cause without the item (the caller names it); null: no code, the caller shows the English. */
export function exportProblemWords(p: ExportProblem | null, lng?: string): string | null {
  if (p === null) return null;
  const say = (key: string, values: Record<string, unknown> = {}): string =>
    // Keys built from the closed code union: test/unit/renderer/export-problem-words.test.ts says every code in both languages.
    i18n.t(`results:exportProblem.${key}` as 'results:exportProblem.no_text', { ...values, ...(lng ? { lng } : {}) });
  switch (p.code) {
    case 'no_text':
    case 'no_invoice_fields':
    case 'no_saved_file':
      return say(p.code);
    case 'saved_unreadable':
      return p.error === 'ENOENT' ? say('saved_gone', { path: p.path }) : say('saved_unreadable', { path: p.path, error: p.error });
    case 'not_in_shared_store':
      return say(p.worker === null ? 'not_in_shared_store' : 'not_in_shared_store_worker', {
        file: p.file,
        batch: p.batch,
        worker: p.worker ?? '',
        mb: formatCount(p.maxMb),
      });
    default:
      return assertNever(p, 'export problem');
  }
}
