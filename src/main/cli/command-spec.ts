// One declarative definition per command: the parser reads its options and the help printer
// prints them, so what a command accepts and what its help lists cannot drift apart.
import type { ParseArgsConfig } from 'node:util';

type ParseOption = NonNullable<ParseArgsConfig['options']>[string];

/** A node:util parseArgs option plus what --help says about it. */
export type OptionSpec = ParseOption & {
  /** The value's placeholder in help, for string options: `--budget EUR`. */
  readonly value?: string;
  /** One line. */
  readonly help: string;
};

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface Example {
  /** A command line using `batchdesk <command>` (it may be piped into). */
  readonly command: string;
  readonly note?: string;
}

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  /** The words after `batchdesk`: `run`, `batch create`. */
  readonly name: string;
  /** One line, for the command list and the help's first line. */
  readonly summary: string;
  /** Argument patterns after the name, one per usage line. */
  readonly usage: readonly string[];
  /** Options besides the global ones; an entry named like a global option replaces its help line. */
  readonly options: O;
  readonly examples: readonly [Example, ...Example[]];
  /** Optional extra lines printed after the options. */
  readonly notes?: readonly string[];
  /**
   * False for a command that uses no data folder and no API (the sandbox): --data-dir and
   * --api-url are refused instead of ignored, and its help does not list them.
   */
  readonly dataAndApi?: false;
  /** True for a command that sends batches (run, demo, compare, index): V8 tiers its code up sooner (sending-tiering.ts). */
  readonly sends?: true;
}

/** Keeps the option literals (types 'string' | 'boolean') so parsed values are typed. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}
