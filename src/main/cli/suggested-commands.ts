// The commands Batchdesk suggests (`batchdesk run b1a2b3`, `batchdesk optout remove ...`) are
// written by the engine and the commands without knowing how the command line was started, and
// some are stored (a pause's reason) and shown later. Copied as printed after `--data-dir D`,
// such a command would read the default data folder instead. So where the command line prints a
// message (never data: names, results, --json, CSV), it carries the global options the user gave
// into each suggested command in it (`io.carry`, cli/io.ts).
// A command for a team's store is written with the placeholder `--store URL`: the store given with
// --store is typed in its place (without its password), and with BATCHDESK_STORE it needs no flag.
import { shellWord } from '../engine/shell-word';
import { urlWithoutPassword } from '../engine/store/store-url';

/** The global options (cli/parse.ts) that decide where a command works: carried into suggestions when given. */
const CARRIED = ['data-dir', 'api-url'] as const;

/** A suggested command, in backticks, as every message writes one. */
const SUGGESTED = /`batchdesk ([^`\n]+)`/g;

/** The placeholder a suggestion for a team's store is written with (Desk.storeFlag, engine/control/plane.ts). */
const STORE_PLACEHOLDER = / --store URL(?= |$)/g;

/** One carried option as given: its name and how it is typed again (`--data-dir '/tmp/my data'`). */
export interface GivenOption {
  name: (typeof CARRIED)[number];
  typed: string;
  /** Matches the option where a suggestion names it itself. */
  named: RegExp;
}

/** The carried options given on this command line (before any `--`); none when none was given (the defaults need no carrying). */
export function givenOptions(argv: readonly string[], platform: NodeJS.Platform = process.platform): GivenOption[] {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  const given: GivenOption[] = [];
  for (const name of CARRIED) {
    const flag = `--${name}`;
    let value: string | undefined;
    args.forEach((a, i) => {
      if (a === flag && i + 1 < args.length) value = args[i + 1];
      else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
    });
    if (value === undefined) continue;
    // A value that starts with "-" is only read as one joined to its flag.
    given.push({
      name,
      typed: value.startsWith('-') ? `${flag}=${shellWord(value, platform)}` : `${flag} ${shellWord(value, platform)}`,
      named: new RegExp(`(?:^| )${flag}(?:[ =]|$)`),
    });
  }
  return given;
}

/**
 * The `--store` given on this command line, as a suggestion types it again: the URL without its
 * password (it is read again from PGPASSWORD or ~/.pgpass, or asked of the user), quoted for the
 * shell. Null when none was given: the store then came from BATCHDESK_STORE, or there is none.
 */
export function givenStore(argv: readonly string[], platform: NodeJS.Platform = process.platform): string | null {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  let value: string | undefined;
  args.forEach((a, i) => {
    if (a === '--store' && i + 1 < args.length) value = args[i + 1];
    else if (a.startsWith('--store=')) value = a.slice('--store='.length);
  });
  if (value === undefined || value.trim() === '') return null;
  return `--store ${shellWord(urlWithoutPassword(value.trim()), platform)}`;
}

/** `text` with each suggestion's `--store URL` placeholder typed as `store` (given with --store), or left out (null: BATCHDESK_STORE names it). */
export function fillStore(text: string, store: string | null): string {
  if (!text.includes(' --store URL')) return text;
  return text.replace(SUGGESTED, (_whole, command: string) => `\`batchdesk ${command.replace(STORE_PLACEHOLDER, store === null ? '' : ` ${store}`)}\``);
}

/**
 * `text` with the given options added to each suggested command that does not name them already
 * (a suggestion may name its own --api-url: the API a batch was sent to): at the end, or before a
 * `--` that ends its options. Help (`--help`) is the same in any data folder.
 */
export function carryGlobals(text: string, given: readonly GivenOption[]): string {
  if (given.length === 0 || !text.includes('`batchdesk ')) return text;
  return text.replace(SUGGESTED, (whole, command: string) => {
    const stop = command.indexOf(' -- ');
    const options = stop < 0 ? command : command.slice(0, stop);
    if (/(?:^| )--help(?:[ =]|$)/.test(options)) return whole;
    const missing = given.filter((g) => !g.named.test(options)).map((g) => g.typed);
    if (missing.length === 0) return whole;
    const added = missing.join(' ');
    const carried = stop < 0 ? `${command} ${added}` : `${command.slice(0, stop)} ${added}${command.slice(stop)}`;
    return `\`batchdesk ${carried}\``;
  });
}

/** What `io.carry` does for this command line. */
export function carrierFor(argv: readonly string[], platform: NodeJS.Platform = process.platform): (text: string) => string {
  const given = givenOptions(argv, platform);
  const store = givenStore(argv, platform);
  return (text) => carryGlobals(fillStore(text, store), given);
}
