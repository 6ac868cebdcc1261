// A command is its spec plus a handler that only ever sees arguments parsed with that spec's
// options (and the global ones), so a flag cannot be parsed without being in the help. A command
// that takes --store names the store when its connection fails midway (store-failure.ts).
import type { CommandSpec, OptionSpecs } from './command-spec';
import type { ExitCode } from './exit-codes';
import type { Command, Io } from './io';
import { parse, type Parsed } from './parse';
import { namedStoreFailure } from './store-failure';

export interface CommandEntry {
  readonly spec: CommandSpec;
  readonly run: Command;
}

export function bindCommand<O extends OptionSpecs>(spec: CommandSpec<O>, handler: (parsed: Parsed<O>, io: Io) => Promise<ExitCode>): CommandEntry {
  return {
    spec,
    run: async (args, io) => {
      const parsed = parse(args, spec.options, spec.dataAndApi !== false);
      try {
        return await handler(parsed, io);
      } catch (e) {
        if (!('store' in spec.options)) throw e;
        const flag: unknown = (parsed.values as Record<string, unknown>).store;
        throw namedStoreFailure(e, typeof flag === 'string' ? flag : undefined, io.env);
      }
    },
  };
}
