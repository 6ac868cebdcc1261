// A retention rule as the log and a run's table show it: the engine records the rule the command
// line's way ("keep-files-days 1 (default)"); the window reads its parts (what, days, whose rule)
// and says them in its language. Text of another shape is shown as recorded.
import { t } from '../i18n';

type Origin = { who: 'batch'; id: string; firstStep: boolean } | { who: 'folder'; dir: string } | { who: 'default' } | { who: 'teamDefault' };
type RulePart = { what: 'files' | 'results'; days: number; origin: Origin } | { what: 'originals'; origin: Origin };

function originOf(text: string): Origin | null {
  if (text === 'default') return { who: 'default' };
  if (text === 'team default') return { who: 'teamDefault' };
  const batch = /^batch (\S+)( \(first step\))?$/.exec(text);
  if (batch) return { who: 'batch', id: batch[1]!, firstStep: batch[2] !== undefined };
  const folder = /^watched folder (.+)$/.exec(text);
  return folder ? { who: 'folder', dir: folder[1]! } : null;
}

/** The parts of a recorded rule, or null when the text is not of the engine's shape. */
export function retentionRuleParts(rule: string): RulePart[] | null {
  const parts: RulePart[] = [];
  for (const piece of rule.split(/, (?=keep-|delete )/)) {
    const days = /^keep-(files|results)-days (\d+) \((.+)\)$/.exec(piece);
    const originals = /^delete originals after success \((.+)\)$/.exec(piece);
    const origin = originOf((days ? days[3] : originals?.[1]) ?? '');
    if (origin === null) return null;
    if (days) parts.push({ what: days[1] as 'files' | 'results', days: Number(days[2]), origin });
    else parts.push({ what: 'originals', origin });
  }
  return parts.length > 0 ? parts : null;
}

function originWords(o: Origin): string {
  switch (o.who) {
    case 'batch':
      return t(o.firstStep ? 'keys:retention.from.batchFirstStep' : 'keys:retention.from.batch', { id: o.id });
    case 'folder':
      return t('keys:retention.from.folder', { dir: o.dir });
    case 'default':
      return t('keys:retention.from.default');
    case 'teamDefault':
      return t('keys:retention.from.teamDefault');
  }
}

/** "Dateien nach 1 Tag löschen (Standardregel)": a recorded rule in the window's language. */
export function retentionRuleWords(rule: string): string {
  const parts = retentionRuleParts(rule);
  if (parts === null) return rule;
  return parts
    .map((p) =>
      p.what === 'originals'
        ? t('keys:retention.part.originals', { from: originWords(p.origin) })
        : t(p.what === 'files' ? 'keys:retention.part.files' : 'keys:retention.part.results', { count: p.days, from: originWords(p.origin) }),
    )
    .join('; ');
}
