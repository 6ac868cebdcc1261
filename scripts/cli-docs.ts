// Writes docs/cli.md, the command line reference, from the command specs the parser and --help
// use, so the reference cannot drift from what the commands accept. test/cli/cli-docs.test.ts
// fails when the file is stale: run `node --import tsx scripts/cli-docs.ts` after changing a spec.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandSpec, OptionSpec, OptionSpecs } from '../src/main/cli/command-spec';
import { COMMANDS } from '../src/main/cli/registry';
import { GLOBAL_OPTIONS } from '../src/main/cli/parse';

export const CLI_DOC = join('docs', 'cli.md');

function flag(name: string, o: OptionSpec): string {
  const long = `--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
  return `${o.short ? `\`-${o.short}\`, ` : ''}\`${long}\``;
}

/** One bullet per option, --store (team mode) last, as --help orders them. */
function optionList(options: OptionSpecs): string[] {
  const entries = Object.entries(options);
  const ordered = [...entries.filter(([n]) => n !== 'store'), ...entries.filter(([n]) => n === 'store')];
  return ordered.map(([name, o]) => `- ${flag(name, o)}: ${o.help}`);
}

const anchor = (name: string): string => `batchdesk-${name.replace(/ /g, '-')}`;

function commandSection(spec: CommandSpec): string[] {
  const own = optionList(spec.options);
  const lines = [`## \`batchdesk ${spec.name}\``, '', `${spec.summary.charAt(0).toUpperCase()}${spec.summary.slice(1)}.`, '', '```text'];
  lines.push(...spec.usage.map((u) => `batchdesk ${spec.name}${u ? ` ${u}` : ''}`), '```', '');
  if (own.length > 0) lines.push('Options:', '', ...own, '');
  lines.push(
    spec.dataAndApi === false
      ? 'It takes no `--data-dir` or `--api-url`: it uses no data folder and no API.'
      : 'It also takes the [global options](#global-options).',
    '',
  );
  if (spec.notes) lines.push(spec.notes.join(' '), '');
  lines.push('Examples:', '', '```sh');
  for (const e of spec.examples) lines.push(e.note ? `${e.command}   # ${e.note}` : e.command);
  lines.push('```', '');
  return lines;
}

export function renderCliDoc(specs: readonly CommandSpec[] = COMMANDS.map((c) => c.spec)): string {
  const lines = [
    '# Command line reference',
    '',
    '<!-- Generated from src/main/cli/specs by `node --import tsx scripts/cli-docs.ts`; do not edit by hand.',
    '     test/cli/cli-docs.test.ts fails when this file is stale. -->',
    '',
    '`batchdesk --help` lists the commands and `batchdesk <command> --help` (or `-h`) prints the same',
    'usage, options and examples as this page. Options go after the command',
    '(`batchdesk status --data-dir DIR`). What the commands do in depth: [batches.md](batches.md),',
    '[team-mode.md](team-mode.md), [troubleshooting.md](troubleshooting.md) (exit codes, failures).',
    '',
    '| Command | What it does |',
    '|---|---|',
    ...specs.map((s) => `| [\`batchdesk ${s.name}\`](#${anchor(s.name)}) | ${s.summary.replace(/\|/g, '\\|')} |`),
    '',
    '## Global options',
    '',
    'Every command takes these (the sandbox only `--help`):',
    '',
    ...optionList(GLOBAL_OPTIONS),
    '',
    '`batchdesk --version` prints the version.',
    '',
    ...specs.flatMap(commandSection),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(join(process.cwd(), CLI_DOC), renderCliDoc());
  process.stdout.write(`Wrote ${CLI_DOC}\n`);
}
