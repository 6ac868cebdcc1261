// Thin wrapper over node:util parseArgs: strict, with the global options every command takes,
// and unknown flags turned into usage errors (exit 2).
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes';
import type { OptionSpecs } from './command-spec';

export const GLOBAL_OPTIONS = {
  'data-dir': { type: 'string', value: 'DIR', help: 'data folder (default: the per-OS app data folder; env BATCHDESK_DATA_DIR)' },
  'api-url': { type: 'string', value: 'URL', help: 'API base URL (env BATCHDESK_API_URL); none configured = the embedded sandbox' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const satisfies OptionSpecs;

export function parse<O extends OptionSpecs>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    // A command that works on this computer's data folder only, given a team's store: said plainly.
    if (!('store' in options) && args.some((a) => a === '--store' || a.startsWith('--store='))) {
      throw new UsageError('This command works on this computer\'s data folder only and does not take --store (README, team mode: what is shared and what is not). Run it without --store.');
    }
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

export type Parsed<O extends OptionSpecs> = ReturnType<typeof parse<O>>;
