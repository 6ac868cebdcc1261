import type { ExitCode } from './exit-codes';

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export type Command = (args: string[], io: Io) => Promise<ExitCode>;
