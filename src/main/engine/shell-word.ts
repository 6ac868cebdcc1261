// One argument as a shell reads it back: for commands Batchdesk suggests (cli/suggested-commands.ts,
// and the reasons the engine stores with a batch), so a value copied with its command stays whole.

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
