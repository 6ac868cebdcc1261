// `batchdesk` entry point: dispatches to a command and turns errors into messages and exit codes.
import { EXIT, UsageError, type ExitCode } from './exit-codes';
import type { Io, Command } from './io';
import { USAGE } from './usage';
import { cmdBatchCreate } from './commands/batch-create';
import { cmdRun } from './commands/run';
import { cmdStatus } from './commands/status';
import { cmdControl } from './commands/control';
import { cmdExport } from './commands/export';
import { cmdKeys } from './commands/keys';
import { cmdRates } from './commands/rates';
import { cmdConfig } from './commands/config';
import { cmdSandbox } from './commands/sandbox';
import { cmdDemo } from './commands/demo';
import { UserError } from '../engine/engine';
import { EngineBusyError } from '../engine/engine-lock';
import { KeychainUnavailableError } from '../engine/secrets/secret-store';

const COMMANDS: Record<string, Command> = {
  run: cmdRun,
  status: cmdStatus,
  export: cmdExport,
  pause: (a, io) => cmdControl('pause', a, io),
  resume: (a, io) => cmdControl('resume', a, io),
  cancel: (a, io) => cmdControl('cancel', a, io),
  retry: (a, io) => cmdControl('retry', a, io),
  keys: cmdKeys,
  rates: cmdRates,
  config: cmdConfig,
  sandbox: cmdSandbox,
  demo: cmdDemo,
  batch: async (a, io) => {
    const [sub, ...rest] = a;
    if (sub !== 'create') throw new UsageError('batch takes one subcommand: create.');
    return cmdBatchCreate(rest, io);
  },
};

export async function main(argv: string[], io: Io): Promise<ExitCode | 130> {
  // `batchdesk status | head`: a reader that went away is not an error worth a stack trace.
  for (const s of [io.stdout, io.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
  }
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(USAGE);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version') {
    io.stdout.write('batchdesk 0.1.0\n');
    return EXIT.ok;
  }
  const cmd = COMMANDS[name];
  try {
    if (!cmd) throw new UsageError(`Unknown command "${name}".`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    return await cmd(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`batchdesk: ${e.message}\nRun \`batchdesk --help\` for usage.\n`);
      return EXIT.usage;
    }
    if (e instanceof UserError) {
      io.stderr.write(`batchdesk: ${e.message}\n`);
      return EXIT.usage;
    }
    if (e instanceof EngineBusyError || e instanceof KeychainUnavailableError) {
      io.stderr.write(`batchdesk: ${e.message}\n`);
      return 4 as ExitCode;
    }
    const zodLike = e instanceof Error && e.name === 'ZodError';
    io.stderr.write(`batchdesk: ${zodLike ? `invalid input: ${e.message}` : e instanceof Error ? e.message : String(e)}\n`);
    return zodLike ? EXIT.usage : EXIT.someFailed;
  }
}

// Run when executed (bundle or tsx), not when imported by tests.
const entry = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:cli\.js|cli[\\/]main\.ts)$/.test(entry)) {
  void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then((code) => {
    process.exitCode = code;
  });
}
