// A command line node's parser refuses is said in this command line's words: the option, and
// how to pass a value that starts with "-".
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/main/cli/parse';
import { UsageError } from '../../../src/main/cli/exit-codes';

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
});
