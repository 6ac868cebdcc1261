// Help pages, printed from the command specs (the same options the parser uses).
import type { CommandSpec, OptionSpec, OptionSpecs } from './command-spec';
import { GLOBAL_OPTIONS } from './parse';

const MAX_LABEL = 36;

function label(name: string, o: OptionSpec): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}`;
  return o.type === 'string' ? `${flag} ${o.value ?? 'VALUE'}` : flag;
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.min(MAX_LABEL, Math.max(0, ...rows.map(([l]) => l.length)));
  // A label longer than the column gets a line of its own, its text below in the column.
  return rows.map(([l, text]) => (l.length > width ? `  ${l}\n  ${' '.repeat(width)}  ${text}` : `  ${l.padEnd(width)}  ${text}`));
}

/** The command's own options first; --store (team mode, where most users never go) last. */
function optionRows(options: OptionSpecs): [string, string][] {
  const entries = Object.entries(options);
  const ordered = [...entries.filter(([name]) => name !== 'store'), ...entries.filter(([name]) => name === 'store')];
  return ordered.map(([name, o]) => [label(name, o), o.help]);
}

export function commandHelp(spec: CommandSpec): string {
  const own = optionRows(spec.options);
  // A command without a data folder and an API (the sandbox) lists only --help.
  const globals = optionRows(
    Object.fromEntries(Object.entries(GLOBAL_OPTIONS).filter(([name]) => !(name in spec.options) && (spec.dataAndApi !== false || name === 'help'))),
  );
  // One column width for both tables, so the page reads as one list.
  const rows = table([...own, ...globals]);
  const lines = [`batchdesk ${spec.name} - ${spec.summary}`, '', 'Usage:', ...spec.usage.map((u) => `  batchdesk ${spec.name}${u ? ` ${u}` : ''}`), ''];
  if (own.length > 0) lines.push('Options:', ...rows.slice(0, own.length), '');
  lines.push('Global options:', ...rows.slice(own.length), '');
  if (spec.notes) lines.push(...spec.notes, '');
  lines.push('Examples:');
  for (const e of spec.examples) lines.push(`  ${e.command}`, ...(e.note ? [`      ${e.note}`] : []));
  return `${lines.join('\n')}\n`;
}

/** `batchdesk keys --help`: the subcommands of a group such as `keys` or `batch`. */
export function groupHelp(group: string, members: readonly CommandSpec[]): string {
  const subs = members.map((m) => m.name.slice(group.length + 1));
  return [
    `batchdesk ${group} - ${subs.join(', ')}`,
    '',
    'Usage:',
    ...members.flatMap((m) => m.usage.map((u) => `  batchdesk ${m.name}${u ? ` ${u}` : ''}`)),
    '',
    ...table(members.map((m) => [`batchdesk ${m.name}`, m.summary])),
    '',
    `Run \`batchdesk ${group} <${subs.join('|')}> --help\` for its options and examples.`,
    '',
  ].join('\n');
}

/** The commands that take `--store`, read from their specs, so the list cannot fall behind them. */
function teamModeLines(specs: readonly CommandSpec[]): string[] {
  const names = [...new Set(specs.filter((s) => 'store' in s.options).map((s) => s.name))];
  const words =
    `Team mode: --store URL or BATCHDESK_STORE (postgresql://...) on ${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}: one queue shared by several computers (docs/team-mode.md).`.split(
      ' ',
    );
  const lines: string[] = [];
  for (const w of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${w}`.length <= 96) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(lines.length === 0 ? w : `           ${w}`);
  }
  return lines;
}

export function globalHelp(specs: readonly CommandSpec[]): string {
  return [
    'batchdesk - run large batches against the metered AI and communications API',
    '',
    'Usage:',
    '  batchdesk <command> [arguments] [options]',
    "  batchdesk <command> --help     the command's usage, options and examples",
    '',
    'Commands:',
    ...table(specs.map((s) => [`batchdesk ${s.name}`, s.summary])),
    '',
    'Global options (every command):',
    ...table([...optionRows(GLOBAL_OPTIONS), ['--version', 'print the version']]),
    '',
    'Keys: the OS keychain (batchdesk keys add), or BATCHDESK_API_KEY / BATCHDESK_CHANNEL_KEY.',
    ...teamModeLines(specs),
    'Exit codes: 0 all succeeded, 1 some items failed, 2 usage error, 3 a batch is paused,',
    '            4 could not start (data folder busy, keychain or shared store unavailable),',
    '            130 interrupted (a standing worker, run --watch, stopped by SIGTERM exits 0).',
    '',
  ].join('\n');
}
