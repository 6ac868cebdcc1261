// A command is its spec plus a handler that only ever sees arguments parsed with that spec's
// options (and the global ones), so a flag cannot be parsed without being in the help.
import type { CommandSpec, OptionSpecs } from './command-spec';
import type { ExitCode } from './exit-codes';
import type { Command, Io } from './io';
import { parse, type Parsed } from './parse';

export interface CommandEntry {
  readonly spec: CommandSpec;
  readonly run: Command;
}

export function bindCommand<O extends OptionSpecs>(spec: CommandSpec<O>, handler: (parsed: Parsed<O>, io: Io) => Promise<ExitCode>): CommandEntry {
  return { spec, run: (args, io) => handler(parse(args, spec.options, spec.dataAndApi !== false), io) };
}
