// Thin wrapper over node:util parseArgs: strict, with the global options every command takes,
// and unknown flags turned into usage errors (exit 2).
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes';
import type { OptionSpecs } from './command-spec';

export const GLOBAL_OPTIONS = {
  'data-dir': { type: 'string', value: 'DIR', help: 'data folder (default: the per-OS app data folder; env BATCHDESK_DATA_DIR)' },
  'api-url': { type: 'string', value: 'URL', help: 'API base URL (env BATCHDESK_API_URL); none configured = the embedded sandbox' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies OptionSpecs;

/** The global options a command without a data folder and an API takes (CommandSpec.dataAndApi). */
const HELP_ONLY = { help: GLOBAL_OPTIONS.help };

export function parse<O extends OptionSpecs>(args: string[], options: O, dataAndApi = true) {
  try {
    // Typed as if every global were taken: one left out is simply never set.
    const globals: typeof GLOBAL_OPTIONS = dataAndApi ? GLOBAL_OPTIONS : (HELP_ONLY as typeof GLOBAL_OPTIONS);
    const all = { ...globals, ...options };
    refuseOptionAfterEnd(args, all);
    return parseArgs({ args, options: all, allowPositionals: true, strict: true });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const given = dataAndApi ? undefined : args.find((a) => /^--(?:data-dir|api-url)(?:=|$)/.test(a));
    if (given !== undefined) {
      throw new UsageError(`${given.split('=')[0] ?? given} does not apply here: this command uses no data folder and no API. Run it without it.`);
    }
    // A command that works on this computer's data folder only, given a team's store: said plainly.
    if (!('store' in options) && args.some((a) => a === '--store' || a.startsWith('--store='))) {
      throw new UsageError(
        "This command works on this computer's data folder only and does not take --store (docs/team-mode.md: what is shared and what is not). Run it without --store.",
      );
    }
    throw new UsageError(parseProblem(e, args));
  }
}

/**
 * An option of this command written after `--` is read as a value (`search -- -5 --data-dir DIR`
 * searched for "--data-dir" in the default data folder, which it made): refused, with where it goes.
 */
function refuseOptionAfterEnd(args: readonly string[], options: OptionSpecs): void {
  const end = args.indexOf('--');
  if (end < 0) return;
  const misplaced = args.slice(end + 1).find((a) => a.startsWith('--') && (a.slice(2).split('=')[0] ?? '') in options);
  if (misplaced === undefined) return;
  const name = misplaced.split('=')[0] ?? misplaced;
  throw new UsageError(
    `${name} comes after --, where everything is read as a value, not an option. Put it${options[name.slice(2)]?.type === 'string' ? ' and its value' : ''} before the --.`,
  );
}

/**
 * node's parse errors in this command line's words. Its unknown-option message suggests
 * `-- "-5"` with a stray quote; this one names the option and how to pass a value that starts
 * with "-" (a search for "-5", a file named "-x.csv").
 */
function parseProblem(e: unknown, args: readonly string[]): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  // node's "argument is ambiguous": an option whose value starts with "-" (`--budget -1`), three
  // lines about an option argument. Said with the value, and how to give it if it is meant.
  const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && ambiguous) {
    const option = ambiguous[1] ?? '';
    const value = args[args.indexOf(option) + 1] ?? '';
    return `${option} is followed by ${value}, which looks like an option, not its value. If ${value} is the value, write ${option}=${value}.`;
  }
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const option = unknown[1] ?? '';
    // A single dash is more often a value than an option (every option but -h is spelled out).
    if (option.startsWith('--')) return `Unknown option ${option}.`;
    return `Unknown option ${option}. A value that starts with "-" (a search for -5, a file named -x.csv) goes after --, at the end: ... -- ${option}`;
  }
  return message;
}

export type Parsed<O extends OptionSpecs> = ReturnType<typeof parse<O>>;
