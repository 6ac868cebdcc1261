// Finds the command an argv names: two words (`batch create`) before one (`run`); a first word
// that only starts multi-word commands (`keys`) is a group.
import type { CommandEntry } from './bind-command';

export type Resolution =
  { kind: 'command'; entry: CommandEntry; args: string[] } | { kind: 'group'; name: string; members: CommandEntry[] } | { kind: 'unknown'; name: string };

export function resolveCommand(argv: readonly string[], entries: readonly CommandEntry[]): Resolution {
  const [first = '', second] = argv;
  const two = entries.find((e) => e.spec.name === `${first} ${second ?? ''}`);
  if (two) return { kind: 'command', entry: two, args: argv.slice(2) };
  const one = entries.find((e) => e.spec.name === first);
  if (one) return { kind: 'command', entry: one, args: argv.slice(1) };
  const members = entries.filter((e) => e.spec.name.startsWith(`${first} `));
  if (members.length > 0) return { kind: 'group', name: first, members };
  return { kind: 'unknown', name: first };
}

/** --help or -h anywhere before a `--` asks for help, whatever else is on the line. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** "add, list or remove" */
export function subcommandList(group: string, members: readonly CommandEntry[]): string {
  const subs = members.map((m) => m.spec.name.slice(group.length + 1));
  return subs.length > 1 ? `${subs.slice(0, -1).join(', ')} or ${subs.at(-1) ?? ''}` : (subs[0] ?? '');
}
