// Finds the `batchdesk` flags the docs name: fenced code lines and inline code spans.
export interface FlagUse {
  /** "README.md:77" */
  where: string;
  /** The command the flag is given to (`batch create`), or null for a bare `--flag` in prose. */
  command: string | null;
  flag: string;
}

interface Snippet {
  line: number;
  text: string;
  inline: boolean;
  /** The command a heading above names (`## \`batchdesk keys add\``), as in docs/cli.md, else null. */
  section: string | null;
}

/** Code in a markdown file: every line of a fenced block, and every inline `span` outside them
 * (a span may wrap onto the next line). */
export function codeSnippets(markdown: string): Snippet[] {
  const out: Snippet[] = [];
  let fenced = false;
  let section: string | null = null;
  let prose: { start: number; lines: string[] } = { start: 1, lines: [] };
  const flushProse = (): void => {
    const text = prose.lines.join('\n');
    for (const m of text.matchAll(/`([^`]+)`/g))
      out.push({ line: prose.start + (text.slice(0, m.index).match(/\n/g)?.length ?? 0), text: (m[1] ?? '').replace(/\s*\n\s*/g, ' '), inline: true, section });
  };
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) {
      if (!fenced) flushProse();
      fenced = !fenced;
      prose = { start: i + 2, lines: [] };
    } else if (fenced) out.push({ line: i + 1, text, inline: false, section });
    else if (/^#{1,6}\s/.test(text)) {
      // A heading ends the prose before it, which belongs to the section above, and begins its own.
      flushProse();
      section = /^#{1,6}\s+`batchdesk ([^`]+)`\s*$/.exec(text)?.[1] ?? null;
      prose = { start: i + 1, lines: [text] };
    } else prose.lines.push(text);
  });
  flushProse();
  return out;
}

const FLAG = /(?:^|[\s[(])(--[a-z][a-z0-9-]*)/g;

/**
 * `batchdesk <command> [<sub>] ... --flag` usages, with `pause|resume` alternatives expanded, shell
 * comments dropped and pipelines split; plus inline spans that begin with a flag (the flag of the
 * command whose heading they stand under, if any), or with a known command's name (`status --json`).
 */
export function flagUses(file: string, markdown: string, commandNames: readonly string[]): FlagUse[] {
  const uses: FlagUse[] = [];
  for (const s of codeSnippets(markdown)) {
    const where = `${file}:${s.line}`;
    const code = s.text.replace(/\s#\s.*$/, '');
    for (const segment of code.split(/\s\|\s|&&|;/)) {
      const at = /(?:^|\s)batchdesk\s+(.*)$/.exec(segment);
      const rest = at?.[1] ?? (s.inline ? segment.trim() : null);
      if (rest === null) continue;
      const flags = [...rest.matchAll(FLAG)].map((m) => m[1] ?? '');
      if (flags.length === 0) continue;
      if (!at && rest.startsWith('--')) {
        // Under a command's heading a bare flag is that command's; elsewhere, some command's.
        const command = s.section !== null && commandNames.includes(s.section) ? s.section : null;
        for (const flag of flags) uses.push({ where, command, flag });
        continue;
      }
      const [first = '', second = ''] = rest.split(/\s+/);
      if (first.startsWith('<') || first.startsWith('-')) continue; // `batchdesk <command> --help`
      for (const word of first.split('|')) {
        const command = commandNames.includes(`${word} ${second}`) ? `${word} ${second}` : commandNames.includes(word) ? word : null;
        if (command) for (const flag of flags) uses.push({ where, command, flag });
        else if (at) uses.push({ where, command: `${word} ${second}`.trim(), flag: flags[0] ?? '' });
      }
    }
  }
  return uses;
}
