// A retention rule as the log and a run's table show it: the engine gives the rule by its parts
// (what, days, whose rule), and the window says them in its language. An entry without parts (an
// older version's words of another shape) is shown as recorded.
import type { RuleOrigin, RulePart } from '../../../shared/retention-rules';
import { t } from '../i18n';

function originWords(o: RuleOrigin): string {
  switch (o.who) {
    case 'batch':
      return t(o.firstStep ? 'keys:retention.from.batchFirstStep' : 'keys:retention.from.batch', { id: o.id });
    case 'folder':
      return t('keys:retention.from.folder', { dir: o.dir });
    case 'default':
      return t('keys:retention.from.default');
    case 'teamDefault':
      return t('keys:retention.from.teamDefault');
    case 'creatorDefault':
      return t('keys:retention.from.creatorDefault', { computer: o.computer });
  }
}

function partWords(p: RulePart): string {
  const from = originWords(p.origin);
  switch (p.what) {
    case 'files':
      return t('keys:retention.part.files', { count: p.days, from });
    case 'results':
      return t('keys:retention.part.results', { count: p.days, from });
    case 'originals':
      return t('keys:retention.part.originals', { from });
  }
}

/** "Dateien 1 Tag aufbewahrt (Standardregel)": a recorded rule in the window's language. */
export function retentionRuleWords(entry: { rule: string; parts: readonly RulePart[] | null }): string {
  return entry.parts === null ? entry.rule : entry.parts.map(partWords).join('; ');
}
