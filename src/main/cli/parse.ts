// Thin wrapper over node:util parseArgs: strict, with the global options every command takes,
// and unknown flags turned into usage errors (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes';

type Options = NonNullable<ParseArgsConfig['options']>;

export const GLOBAL_OPTIONS = {
  'data-dir': { type: 'string' },
  'api-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export function parse<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}
