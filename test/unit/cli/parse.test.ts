// A command line node's parser refuses is said in this command line's words: the option, and
// how to pass a value that starts with "-".
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/main/cli/parse';
import { UsageError } from '../../../src/main/cli/exit-codes';
import { commandHelp } from '../../../src/main/cli/help';
import { sandboxSpec } from '../../../src/main/cli/specs/sandbox';

function refusal(args: string[]): string {
  try {
    parse(args, { limit: { type: 'string', value: 'N', help: 'most hits' } });
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${args.join(' ')}`);
}

describe('parse', () => {
  it('names an unknown option, and for a value with a dash says where it goes', () => {
    expect(refusal(['-5'])).toBe('Unknown option -5. A value that starts with "-" (a search for -5, a file named -x.csv) goes after --, at the end: ... -- -5');
    expect(refusal(['refund', '--bogus'])).toBe('Unknown option --bogus.');
    // After --, it is a value.
    expect(parse(['--limit', '3', '--', '-5'], { limit: { type: 'string', value: 'N', help: 'most hits' } }).positionals).toEqual(['-5']);
  });

  it('a value that starts with a dash after an option: said with the value, and how to give it', () => {
    expect(refusal(['--limit', '-1'])).toBe('--limit is followed by -1, which looks like an option, not its value. If -1 is the value, write --limit=-1.');
    expect(parse(['--limit=-1'], { limit: { type: 'string', value: 'N', help: 'most hits' } }).values.limit).toBe('-1');
  });

  it('an option written after -- is refused, not searched for (nor the default data folder used)', () => {
    const limit = { limit: { type: 'string', value: 'N', help: 'most hits' } } as const;
    expect(() => parse(['--', '-5', '--data-dir', '/tmp/x'], limit)).toThrow(
      new UsageError('--data-dir comes after --, where everything is read as a value, not an option. Put it and its value before the --.'),
    );
    expect(() => parse(['--', 'refund', '--limit=3'], limit)).toThrow(/^--limit comes after --/);
    expect(() => parse(['--', 'x', '--help'], limit)).toThrow(/^--help comes after --, .* Put it before the --\.$/);
    // Anything else after -- is a value, as before.
    expect(parse(['--data-dir', '/tmp/x', '--', '-5', '--bogus'], limit).positionals).toEqual(['-5', '--bogus']);
  });

  it('a command without a data folder and an API (the sandbox) refuses --data-dir and --api-url, and its help lists neither', () => {
    const port = { port: { type: 'string', value: 'N', help: 'port' } } as const;
    expect(() => parse(['--port', '1', '--data-dir', '/tmp/x'], port, false)).toThrow(
      new UsageError('--data-dir does not apply here: this command uses no data folder and no API. Run it without it.'),
    );
    expect(() => parse(['--api-url=http://127.0.0.1:1'], port, false)).toThrow(/^--api-url does not apply here/);
    expect(parse(['--port', '1', '-h'], port, false).values).toMatchObject({ port: '1', help: true });
    expect(parse(['--data-dir', '/tmp/x'], port).values['data-dir']).toBe('/tmp/x');
    const help = commandHelp(sandboxSpec);
    expect(help).toContain('--db FILE');
    expect(help).toContain('-h, --help');
    expect(help).not.toMatch(/--data-dir|--api-url/);
  });
});
