// "Install Command Line Tool…": puts the app's `batchdesk` launcher (resources/bin, run by the
// app's own binary as Node) on the user's PATH, as VS Code's "Install 'code' command" does.
// macOS: a link /usr/local/bin/batchdesk (an administrator's password when that folder is not
// writable). Windows: the launcher's folder added to the user's Path. Linux: the deb links
// /usr/bin/batchdesk itself (resources/linux/after-install.sh).
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assertNever } from '../../shared/domain';

export type ToolPlan = { kind: 'link'; launcher: string; link: string } | { kind: 'user_path'; folder: string } | { kind: 'none'; message: string };

export function commandLineToolPlan(f: { platform: NodeJS.Platform; packaged: boolean; resourcesPath: string }): ToolPlan {
  if (!f.packaged) {
    return {
      kind: 'none',
      message:
        'The command line tool comes with the installed app. In a development checkout, run `node bin/batchdesk.js` (after `npm run build`), or `npm link` to put `batchdesk` on your PATH.',
    };
  }
  const bin = join(f.resourcesPath, 'bin');
  switch (f.platform) {
    case 'darwin':
      return { kind: 'link', launcher: join(bin, 'batchdesk'), link: '/usr/local/bin/batchdesk' };
    case 'win32':
      return { kind: 'user_path', folder: bin };
    default:
      return {
        kind: 'none',
        message: `The deb package puts \`batchdesk\` on your PATH (/usr/bin/batchdesk). Elsewhere, link it yourself: ln -s '${join(bin, 'batchdesk')}' ~/.local/bin/batchdesk`,
      };
  }
}

export type LinkOutcome =
  | { kind: 'linked' }
  | { kind: 'already' }
  /** Not allowed here (the folder belongs to root): the same, run as an administrator. */
  | { kind: 'needs_admin'; command: string }
  /** A file that is not a link is in the way: it is left alone. */
  | { kind: 'occupied'; message: string };

/** Links `link` to `launcher`, replacing an older link (a moved app) but never a real file. */
export function linkLauncher(launcher: string, link: string): LinkOutcome {
  const existing = lstatOrNull(link);
  if (existing && !existing.isSymbolicLink()) {
    return {
      kind: 'occupied',
      message: `${link} exists and is not a link (another program's batchdesk?). It was left as it is: remove or rename it, then choose Install Command Line Tool… again.`,
    };
  }
  if (existing && readlinkSync(link) === launcher) return { kind: 'already' };
  try {
    mkdirSync(dirname(link), { recursive: true });
    if (existing) unlinkSync(link);
    symlinkSync(launcher, link);
    return { kind: 'linked' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM')
      return { kind: 'needs_admin', command: `mkdir -p ${shellQuote(dirname(link))} && ln -sfn ${shellQuote(launcher)} ${shellQuote(link)}` };
    throw e;
  }
}

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** One word for sh, whatever the path holds (an app folder renamed with a quote in it). */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** osascript's way to run `command` as an administrator (macOS asks for the password). */
export function adminAppleScript(command: string): string {
  const quoted = command.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  return `do shell script "${quoted}" with administrator privileges`;
}

/**
 * PowerShell that adds $env:BATCHDESK_BIN to the user's Path unless it is there, and prints
 * "added" or "present". [Environment]::SetEnvironmentVariable tells running programs (Explorer),
 * so a new terminal sees it; setx would cut a long Path at 1,024 characters.
 */
export const ADD_TO_USER_PATH_PS = [
  '$bin = $env:BATCHDESK_BIN',
  "$path = [Environment]::GetEnvironmentVariable('Path', 'User')",
  "$parts = @(if ($path) { $path -split ';' | Where-Object { $_ -ne '' } })",
  "if ($parts | Where-Object { $_.TrimEnd('\\') -ieq $bin.TrimEnd('\\') }) { 'present' }",
  "else { [Environment]::SetEnvironmentVariable('Path', ((@($parts) + $bin) -join ';'), 'User'); 'added' }",
].join('\n');

/** What the user reads after an install, by outcome. */
export function installedMessage(outcome: 'linked' | 'already' | 'added' | 'present', where: string): string {
  switch (outcome) {
    case 'linked':
      return `Installed: ${where} runs Batchdesk's command line. Open a terminal and type \`batchdesk --help\`.`;
    case 'already':
      return `Already installed: ${where} runs this Batchdesk's command line. Type \`batchdesk --help\` in a terminal.`;
    case 'added':
      return `Installed: ${where} was added to your Path. Open a new terminal (those open now keep the old Path) and type \`batchdesk --help\`.`;
    case 'present':
      return `Already installed: ${where} is on your Path. Type \`batchdesk --help\` in a new terminal.`;
    default:
      return assertNever(outcome, 'install outcome');
  }
}
