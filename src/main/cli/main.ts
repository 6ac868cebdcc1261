// `batchdesk` entry point: dispatches to a command and turns errors into messages and exit codes.
import { EXIT, UsageError, type ExitCode } from './exit-codes';
import type { Io, Streams } from './io';
import { COMMANDS } from './registry';
import { resolveCommand, subcommandList, wantsHelp } from './dispatch';
import { commandHelp, globalHelp, groupHelp } from './help';
import { classifyFailure, exitCodeFor } from '../engine/failures';
import { defaultDataDir } from '../engine/data-dir';
import { carrierFor } from './suggested-commands';
import { tierForSending } from './sending-tiering';
import { textOut } from './terminal-out';

export async function main(argv: string[], streams: Streams): Promise<ExitCode | 130> {
  // `batchdesk status | head`: a reader that went away is not an error worth a stack trace.
  for (const s of [streams.stdout, streams.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
  }
  // A command a message suggests, copied as printed, works on the same data folder and API.
  // Everything a command prints goes through textOut: text from outside cannot drive the terminal.
  const io: Io = { ...streams, stdout: textOut(streams.stdout), stderr: textOut(streams.stderr), carry: carrierFor(argv) };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(globalHelp(COMMANDS.map((c) => c.spec)));
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version') {
    io.stdout.write('batchdesk 0.1.0\n');
    return EXIT.ok;
  }
  // `batchdesk help batch create` is `batchdesk batch create --help`.
  const asked = name === 'help' ? [...rest, '--help'] : argv;
  const found = resolveCommand(asked, COMMANDS);
  const helpFor = found.kind === 'command' ? found.entry.spec.name : found.kind === 'group' ? found.name : null;
  try {
    if (found.kind === 'unknown') throw new UsageError(`Unknown command "${found.name}".`);
    if (found.kind === 'group') {
      if (wantsHelp(asked)) {
        io.stdout.write(
          groupHelp(
            found.name,
            found.members.map((m) => m.spec),
          ),
        );
        return EXIT.ok;
      }
      throw new UsageError(`${found.name} takes a subcommand: ${subcommandList(found.name, found.members)}.`);
    }
    if (wantsHelp(found.args)) {
      io.stdout.write(commandHelp(found.entry.spec));
      return EXIT.ok;
    }
    if (found.entry.spec.sends === true) tierForSending();
    return await found.entry.run(found.args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`batchdesk: ${io.carry(e.message)}\nRun \`batchdesk ${helpFor ?? ''}${helpFor ? ' ' : ''}--help\` for usage.\n`);
      return EXIT.usage;
    }
    // One meaning per error (engine/failures.ts), the same the window gets.
    const failure = classifyFailure(e, found.kind === 'command' ? dataDirOf(found.args, io.env) : undefined);
    io.stderr.write(`batchdesk: ${io.carry(failure.message)}\n`);
    return exitCodeFor(failure.kind);
  }
}

/**
 * The data folder a command line names (--data-dir DIR, --data-dir=DIR, else the environment's or
 * the default): a damaged database met past the command's own handling is named by its path.
 */
function dataDirOf(args: readonly string[], env: NodeJS.ProcessEnv): string {
  for (const [i, a] of args.entries()) {
    if (a === '--') break;
    if (a === '--data-dir' && args[i + 1] !== undefined) return args[i + 1] ?? '';
    if (a.startsWith('--data-dir=')) return a.slice('--data-dir='.length);
  }
  return defaultDataDir(env);
}

// Run when executed from the sources (tsx), not when imported by tests or by the built entry (entry.ts).
const entry = process.argv[1] ?? '';
if (/(?:^|[\\/])cli[\\/]main\.ts$/.test(entry)) {
  void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then((code) => {
    process.exitCode = code;
  });
}
