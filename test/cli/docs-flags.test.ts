// Every flag the README and docs/ name exists for the command they give it to (or, written bare
// in prose, for some command), so a copied command line never fails with "Unknown option"; and
// every flag of every command is documented for that command somewhere in README.md or docs/.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/main/cli/registry';
import { GLOBAL_OPTIONS } from '../../src/main/cli/parse';
import { flagUses, type FlagUse } from './doc-flags';

const ROOT = process.cwd();
const NAMES = COMMANDS.map((c) => c.spec.name);

function docs(): { file: string; text: string }[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f)),
  ];
  return files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

function flagsOf(command: string): Set<string> | undefined {
  const spec = COMMANDS.find((c) => c.spec.name === command)?.spec;
  return spec && new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(spec.options)].map((o) => `--${o}`));
}

function problems(uses: readonly FlagUse[]): string[] {
  const anywhere = new Set(NAMES.flatMap((n) => [...(flagsOf(n) ?? [])]));
  return uses.flatMap((u) => {
    if (u.command === null) return anywhere.has(u.flag) ? [] : [`${u.where}: \`${u.flag}\` is not a flag of any batchdesk command`];
    const flags = flagsOf(u.command);
    if (!flags) return [`${u.where}: \`batchdesk ${u.command}\` is not a command`];
    return flags.has(u.flag) ? [] : [`${u.where}: \`batchdesk ${u.command}\` has no flag \`${u.flag}\``];
  });
}

/** `batchdesk <command> --flag` for each flag of each command (global ones: for any command) that no use names. */
function undocumented(uses: readonly FlagUse[]): string[] {
  const named = new Set(uses.map((u) => `${u.command ?? ''} ${u.flag}`));
  const anyCommand = new Set(uses.map((u) => u.flag));
  const own = COMMANDS.flatMap((c) => Object.keys(c.spec.options).map((o) => `${c.spec.name} --${o}`)).filter((k) => !named.has(k));
  const globals = Object.keys(GLOBAL_OPTIONS)
    .filter((o) => !anyCommand.has(`--${o}`))
    .map((o) => `(any command) --${o}`);
  return [...own, ...globals].map((k) => `batchdesk ${k}`);
}

describe('flags named in the docs', () => {
  it('finds command lines, alternatives, pipes, comments and bare flags', () => {
    const md = [
      '```sh',
      'batchdesk batch create ocr ~/scans --tier superior   # a --comment-flag',
      'printf \'%s\' "$KEY" | batchdesk keys add --kind channel',
      'batchdesk pause|resume <id> --budget 4',
      'batchdesk frob --x',
      '```',
      'Use `--channel-name` or `status --json` or `npm run web -- --port 1`.',
      '## `batchdesk keys add`',
      '- `--kind api|channel`: which kind; see `--nope`',
      '## Other',
      '- `--kind x`',
    ].join('\n');
    const uses = flagUses('t.md', md, NAMES);
    expect(uses).toEqual([
      { where: 't.md:2', command: 'batch create', flag: '--tier' },
      { where: 't.md:3', command: 'keys add', flag: '--kind' },
      { where: 't.md:4', command: 'pause', flag: '--budget' },
      { where: 't.md:4', command: 'resume', flag: '--budget' },
      { where: 't.md:5', command: 'frob --x', flag: '--x' },
      { where: 't.md:7', command: null, flag: '--channel-name' },
      { where: 't.md:7', command: 'status', flag: '--json' },
      { where: 't.md:9', command: 'keys add', flag: '--kind' },
      { where: 't.md:9', command: 'keys add', flag: '--nope' },
      { where: 't.md:11', command: null, flag: '--kind' },
    ]);
    expect(problems(uses)).toEqual([
      't.md:4: `batchdesk pause` has no flag `--budget`',
      't.md:5: `batchdesk frob --x` is not a command',
      't.md:7: `--channel-name` is not a flag of any batchdesk command',
      't.md:9: `batchdesk keys add` has no flag `--nope`',
    ]);
    expect(undocumented(uses).length).toBeGreaterThan(10);
    expect(undocumented(uses)).not.toContain('batchdesk keys add --kind');
  });

  it('every --help example uses only flags its command defines', () => {
    const md = ['```', ...COMMANDS.flatMap((c) => c.spec.examples.map((e) => e.command)), '```'].join('\n');
    const uses = flagUses('examples', md, NAMES);
    expect(uses.length).toBeGreaterThan(10);
    expect(problems(uses)).toEqual([]);
  });

  it('README.md and docs/*.md name only flags the CLI defines', () => {
    const uses = docs().flatMap((d) => flagUses(d.file, d.text, NAMES));
    expect(uses.length).toBeGreaterThan(20);
    expect(problems(uses)).toEqual([]);
  });

  it('every flag of every command is documented for it in README.md or docs/', () => {
    expect(undocumented(docs().flatMap((d) => flagUses(d.file, d.text, NAMES)))).toEqual([]);
  });
});
