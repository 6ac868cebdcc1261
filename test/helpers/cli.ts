// Runs the built command line (out/main/cli.js) as a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLI = join(process.cwd(), 'out', 'main', 'cli.js');

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does).`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment plus what the keychain needs (the test D-Bus session), and the test's own. */
function cliEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    XDG_DATA_HOME: process.env.XDG_DATA_HOME,
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
    ...env,
  };
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  if (input !== undefined) child.stdin?.end(input);
  else child.stdin?.end();
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliResult> {
  return startCli(args, env, input).done;
}

/** `s` quoted for sh. */
const shellQuoted = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Runs the built command line with a terminal as its standard input, output and error (a
 * pseudo-terminal made by util-linux `script`), `typed` written to it as a person types: for the
 * questions a command asks only where someone can answer. Output and error arrive together, lines
 * ending in "\r\n" as a terminal has them; `code` is the command's own exit code.
 */
export function runCliTty(args: string[], env: NodeJS.ProcessEnv = {}, typed = ''): Promise<{ code: number | null; output: string }> {
  const line = [process.execPath, CLI, ...args].map(shellQuoted).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], {
    env: cliEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  child.stdin?.end(typed);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: output.replaceAll('\r\n', '\n') })));
}
