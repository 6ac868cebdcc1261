// A retention rule by its parts (shared/retention-rules.ts RulePart) and in the engine's English,
// one from the other: a deletion records both (the log's `rule` and `rule_parts`), the command line
// prints the English, the window says the parts in its language. Entries logged before parts were
// stored (SQLite migration 28, PostgreSQL 23), and the origins a team's rules keep as text, are read
// back from those words here, and only here.
import { RuleOrigin, RuleParts, type RulePart } from '../../../shared/retention-rules';
import { storedJson } from '../stored-json';

/** Where a part of a team batch's rule comes from when the team's default gives it. */
export const TEAM_DEFAULT_ORIGIN = 'team default';
const CREATOR_DEFAULT = /^the default of (.+), the computer that made the batch$/;

/** An origin in words: "batch b_1", "batch b_1 (first step)", "watched folder /in", "default", "team default", ... */
export function originName(o: RuleOrigin): string {
  switch (o.who) {
    case 'batch':
      return `batch ${o.id}${o.firstStep ? ' (first step)' : ''}`;
    case 'folder':
      return `watched folder ${o.dir}`;
    case 'default':
      return 'default';
    case 'teamDefault':
      return TEAM_DEFAULT_ORIGIN;
    case 'creatorDefault':
      return `the default of ${o.computer}, the computer that made the batch`;
  }
}

/** "keep-files-days 30 (batch b_1)", parts joined by ", ": the words the log has always had. */
export function ruleWords(parts: readonly RulePart[]): string {
  return parts
    .map((p) =>
      p.what === 'originals' ? `delete originals after success (${originName(p.origin)})` : `keep-${p.what}-days ${p.days} (${originName(p.origin)})`,
    )
    .join(', ');
}

/** An origin from its words (originName's), or null for words of another shape. */
export function originOfName(text: string): RuleOrigin | null {
  if (text === 'default') return { who: 'default' };
  if (text === TEAM_DEFAULT_ORIGIN) return { who: 'teamDefault' };
  const creator = CREATOR_DEFAULT.exec(text);
  if (creator?.[1] !== undefined) return { who: 'creatorDefault', computer: creator[1] };
  const batch = /^batch (\S+)( \(first step\))?$/.exec(text);
  if (batch?.[1] !== undefined) return { who: 'batch', id: batch[1], firstStep: batch[2] !== undefined };
  const folder = /^watched folder (.+)$/.exec(text);
  return folder?.[1] !== undefined ? { who: 'folder', dir: folder[1] } : null;
}

/** A recorded rule's parts from its words (ruleWords'), or null for words of another shape. */
export function partsOfRuleWords(rule: string): RulePart[] | null {
  const parts: RulePart[] = [];
  // A part's origin may hold ", " (a team's creator default): parts are split only where one begins.
  for (const piece of rule.split(/, (?=keep-(?:files|results)-days \d|delete originals after success \()/)) {
    const days = /^keep-(files|results)-days (\d+) \((.+)\)$/.exec(piece);
    const originals = /^delete originals after success \((.+)\)$/.exec(piece);
    const origin = originOfName((days ? days[3] : originals?.[1]) ?? '');
    if (origin === null) return null;
    if (days) parts.push({ what: days[1] === 'files' ? 'files' : 'results', days: Number(days[2]), origin });
    else parts.push({ what: 'originals', origin });
  }
  return parts.length > 0 ? parts : null;
}

/** A log row's parts: as stored, or (a row from before they were) read from its words. */
export function storedRuleParts(stored: string | null, rule: string): RulePart[] | null {
  if (stored !== null) {
    const p = RuleParts.safeParse(storedJson(stored));
    if (p.success) return p.data;
  }
  return partsOfRuleWords(rule);
}
