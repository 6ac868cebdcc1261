// The commands Batchdesk suggests (`batchdesk run b1a2b3`, `batchdesk optout remove ...`) are
// written by the engine and the commands without knowing how the command line was started, and
// some are stored (a pause's reason) and shown later. Copied as printed after `--data-dir D`,
// such a command would read the default data folder instead. So the command line's output
// carries the global options the user gave into every suggested command it prints: one place,
// at display time, for every message wherever it was written.
import type { Io } from './io';
import { GLOBAL_OPTIONS } from './parse';

/** The global options that decide where a command works: carried into suggestions when given. */
const CARRIED = (['data-dir', 'api-url'] as const).filter((name) => name in GLOBAL_OPTIONS);

/** A suggested command, in backticks, as every message writes one. */
const SUGGESTED = /`batchdesk ([^`\n]+)`/g;

/** A word the shell takes as it is. */
const PLAIN = /^[\w./:@%+=,~-]+$/;

/** One argument as a shell on this system reads it back. */
export function shellWord(value: string, platform: NodeJS.Platform = process.platform): string {
  if (PLAIN.test(value)) return value;
  if (platform === 'win32') return `"${value.replace(/"/g, '""')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The carried options given on this command line (before any `--`), as they should be typed
 * again: `--data-dir '/tmp/my data'`. Empty when none was given (the defaults need no carrying).
 */
export function givenGlobals(argv: readonly string[], platform: NodeJS.Platform = process.platform): string {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  const given: string[] = [];
  for (const name of CARRIED) {
    const flag = `--${name}`;
    let value: string | undefined;
    args.forEach((a, i) => {
      if (a === flag && i + 1 < args.length) value = args[i + 1];
      else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
    });
    if (value !== undefined) given.push(`${flag} ${shellWord(value, platform)}`);
  }
  return given.join(' ');
}

/**
 * `text` with `globals` added to each suggested command that does not name them already: at the
 * end, or before a `--` that ends its options. Help (`--help`) is the same in any data folder.
 */
export function carryGlobals(text: string, globals: string): string {
  if (globals === '' || !text.includes('`batchdesk ')) return text;
  return text.replace(SUGGESTED, (whole, command: string) => {
    if (/(?:^| )--(?:help|data-dir|api-url)(?:[ =]|$)/.test(command)) return whole;
    const stop = command.indexOf(' -- ');
    const carried = stop < 0 ? `${command} ${globals}` : `${command.slice(0, stop)} ${globals}${command.slice(stop)}`;
    return `\`batchdesk ${carried}\``;
  });
}

/** `carryGlobals` over every string inside a JSON value. */
function carryInJson(value: unknown, globals: string): unknown {
  if (typeof value === 'string') return carryGlobals(value, globals);
  if (Array.isArray(value)) return value.map((v) => carryInJson(v, globals));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, carryInJson(v, globals)]));
  return value;
}

/**
 * What one write becomes. A `--json` document (written whole, one write) is changed inside its
 * strings and written again as it was laid out, so it stays valid JSON whatever the path holds.
 */
export function carriedOutput(chunk: string, globals: string): string {
  if (globals === '' || !chunk.includes('`batchdesk ')) return chunk;
  const json = /^[{[]/.test(chunk) ? parsedJson(chunk) : undefined;
  if (json === undefined) return carryGlobals(chunk, globals);
  return `${JSON.stringify(carryInJson(json, globals), null, 2)}${chunk.endsWith('\n') ? '\n' : ''}`;
}

function parsedJson(chunk: string): unknown {
  try {
    return JSON.parse(chunk) as unknown;
  } catch {
    return undefined;
  }
}

function carrying<S extends NodeJS.WritableStream>(stream: S, globals: string): S {
  return new Proxy(stream, {
    get(target, key, receiver) {
      if (key !== 'write') return Reflect.get(target, key, receiver) as unknown;
      return (chunk: unknown, ...rest: unknown[]): boolean => {
        const out = typeof chunk === 'string' ? carriedOutput(chunk, globals) : chunk;
        return (target.write as (c: unknown, ...r: unknown[]) => boolean).call(target, out, ...rest);
      };
    },
  });
}

/** The command line's output with the given global options carried into its suggestions. */
export function withCarriedGlobals(io: Io, argv: readonly string[]): Io {
  const globals = givenGlobals(argv);
  if (globals === '') return io;
  return { ...io, stdout: carrying(io.stdout, globals), stderr: carrying(io.stderr, globals) };
}
