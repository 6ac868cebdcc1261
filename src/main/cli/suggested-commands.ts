// The commands Batchdesk suggests (`batchdesk run b1a2b3`, `batchdesk optout remove ...`) are
// written by the engine and the commands without knowing how the command line was started, and
// some are stored (a pause's reason) and shown later. Copied as printed after `--data-dir D`,
// such a command would read the default data folder instead. So where the command line prints a
// message (never data: names, results, --json, CSV), it carries the global options the user gave
// into each suggested command in it (`io.carry`, cli/io.ts).
/** The global options (cli/parse.ts) that decide where a command works: carried into suggestions when given. */
const CARRIED = ['data-dir', 'api-url'] as const;

/** A suggested command, in backticks, as every message writes one. */
const SUGGESTED = /`batchdesk ([^`\n]+)`/g;

/** A word a POSIX shell takes as it is (not `~` or `=` first: bash and zsh expand those). */
const PLAIN = /^[\w./:@%+,-][\w./:@%+=,~-]*$/;
/** A word cmd and PowerShell take as they are (a backslash is a path's, `%` and `$` are not plain). */
const PLAIN_WINDOWS = /^[\w./:\\@+,-][\w./:\\@+=,~-]*$/;

/** One argument as a shell on this system reads it back. */
export function shellWord(value: string, platform: NodeJS.Platform = process.platform): string {
  if ((platform === 'win32' ? PLAIN_WINDOWS : PLAIN).test(value)) return value;
  // cmd and PowerShell: double quotes, a quote doubled, and backslashes before a quote (or the
  // closing one: `"C:\data\"`) doubled, as Windows programs split their command line.
  if (platform === 'win32') return `"${value.replace(/(\\*)"/g, '$1$1""').replace(/(\\+)$/, '$1$1')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The carried options given on this command line (before any `--`), as they should be typed
 * again: `--data-dir '/tmp/my data'`. Empty when none was given (the defaults need no carrying).
 */
export function givenGlobals(argv: readonly string[], platform: NodeJS.Platform = process.platform): string {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  const given: string[] = [];
  for (const name of CARRIED) {
    const flag = `--${name}`;
    let value: string | undefined;
    args.forEach((a, i) => {
      if (a === flag && i + 1 < args.length) value = args[i + 1];
      else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
    });
    if (value === undefined) continue;
    // A value that starts with "-" is only read as one joined to its flag.
    given.push(value.startsWith('-') ? `${flag}=${shellWord(value, platform)}` : `${flag} ${shellWord(value, platform)}`);
  }
  return given.join(' ');
}

/**
 * `text` with `globals` added to each suggested command that does not name them already: at the
 * end, or before a `--` that ends its options. Help (`--help`) is the same in any data folder.
 */
export function carryGlobals(text: string, globals: string): string {
  if (globals === '' || !text.includes('`batchdesk ')) return text;
  return text.replace(SUGGESTED, (whole, command: string) => {
    if (/(?:^| )--(?:help|data-dir|api-url)(?:[ =]|$)/.test(command)) return whole;
    const stop = command.indexOf(' -- ');
    const carried = stop < 0 ? `${command} ${globals}` : `${command.slice(0, stop)} ${globals}${command.slice(stop)}`;
    return `\`batchdesk ${carried}\``;
  });
}

/** What `io.carry` does for this command line. */
export function carrierFor(argv: readonly string[], platform: NodeJS.Platform = process.platform): (text: string) => string {
  const globals = givenGlobals(argv, platform);
  return (text) => carryGlobals(text, globals);
}
