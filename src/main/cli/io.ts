import type { ExitCode } from './exit-codes';
import type { TextOut } from './terminal-out';

/** What the command line is started with. */
export interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export interface Io extends Omit<Streams, 'stdout' | 'stderr'> {
  /** Standard output and error as text for a reader: control characters escaped (terminal-out.ts). */
  stdout: TextOut;
  stderr: TextOut;
  /**
   * A message with the --data-dir / --api-url this command line was given carried into each
   * `batchdesk ...` it suggests (suggested-commands.ts). For messages only: data (names, results,
   * --json, CSV) is printed as it is.
   */
  carry(text: string): string;
}

export type Command = (args: string[], io: Io) => Promise<ExitCode>;
