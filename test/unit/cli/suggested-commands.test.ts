// Suggested commands carry the --data-dir / --api-url the user gave, so that one copied as
// printed works on the same data folder.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { carrierFor, carryGlobals, givenOptions, givenStore } from '../../../src/main/cli/suggested-commands';
import { shellWord } from '../../../src/main/engine/shell-word';

/** The options given, as a suggestion gets them typed. */
const givenGlobals = (argv: string[]): string =>
  givenOptions(argv, 'linux')
    .map((g) => g.typed)
    .join(' ');

/** What bash makes of `word`: the argument a copied command would really pass. */
function bashReads(word: string): string {
  return execFileSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8', env: { ...process.env, HOME: '/home/someone' } });
}

describe('suggested commands', () => {
  it('finds the global options given, in either spelling, and quotes them for the shell', () => {
    expect(givenGlobals(['status', '--data-dir', '/tmp/d'])).toBe('--data-dir /tmp/d');
    expect(givenGlobals(['run', '--api-url=http://127.0.0.1:8080', 'b1', '--data-dir', "/tmp/Bob's data"])).toBe(
      "--data-dir '/tmp/Bob'\\''s data' --api-url http://127.0.0.1:8080",
    );
    // Defaults and the environment need no carrying; what follows `--` is not an option.
    expect(givenGlobals(['status'])).toBe('');
    expect(givenGlobals(['batch', 'create', 'text', '--', '--data-dir', 'x'])).toBe('');
    // A value that starts with "-" is only read joined to its flag.
    expect(givenGlobals(['status', '--data-dir=-odd'])).toBe('--data-dir=-odd');
  });

  it('quotes every value so that bash reads back exactly that value', () => {
    // "~" and "=" first are expanded by bash or zsh: a folder literally named "~/bd" (given as
    // --data-dir=~/bd, which bash does not expand) must not become $HOME/bd when copied.
    for (const value of ['/tmp/d', '~/bd', '=x', "/tmp/Bob's data", '/tmp/a b/c,d', '/tmp/$HOME', '/tmp/`x`', 'C:\\data']) {
      expect(bashReads(shellWord(value, 'linux')), value).toBe(value);
    }
    expect(shellWord('/srv/calls/2026-11', 'linux')).toBe('/srv/calls/2026-11');
  });

  it('quotes for Windows as its programs split a command line', () => {
    expect(shellWord('C:\\Users\\me\\batch data', 'win32')).toBe('"C:\\Users\\me\\batch data"');
    // A trailing backslash would escape the closing quote: doubled.
    expect(shellWord('C:\\my data\\', 'win32')).toBe('"C:\\my data\\\\"');
    expect(shellWord('D:\\batchdesk', 'win32')).toBe('D:\\batchdesk');
  });

  it('adds them to every suggested command that does not name them, before a `--`', () => {
    const g = givenOptions(['status', '--data-dir', '/tmp/d'], 'linux');
    expect(carryGlobals('Start it: `batchdesk run b1` (or pause with `batchdesk pause b1`).', g)).toBe(
      'Start it: `batchdesk run b1 --data-dir /tmp/d` (or pause with `batchdesk pause b1 --data-dir /tmp/d`).',
    );
    expect(carryGlobals('`batchdesk resume b1 --store postgresql://db/team`', g)).toBe('`batchdesk resume b1 --store postgresql://db/team --data-dir /tmp/d`');
    expect(carryGlobals('`batchdesk search x -- --literal`', g)).toBe('`batchdesk search x --data-dir /tmp/d -- --literal`');
    // Already there, help, a word that is not a suggestion, or nothing given: unchanged.
    for (const same of ['`batchdesk run --data-dir /x b1`', 'Run `batchdesk run --help` for usage.', 'batchdesk run b1', '`batchdesk-test`']) {
      expect(carryGlobals(same, g)).toBe(same);
    }
    expect(carryGlobals('`batchdesk run b1`', [])).toBe('`batchdesk run b1`');
    // A suggestion that names its own API (the one a batch was sent to) keeps it, and still gets the data folder.
    const both = givenOptions(['run', '--data-dir', '/tmp/d', '--api-url', 'http://b.test/'], 'linux');
    expect(carryGlobals('`batchdesk run b1 --api-url http://a.test/`', both)).toBe('`batchdesk run b1 --api-url http://a.test/ --data-dir /tmp/d`');
    expect(carryGlobals('`batchdesk run b1`', both)).toBe('`batchdesk run b1 --data-dir /tmp/d --api-url http://b.test/`');
    expect(carrierFor(['status'], 'linux')('`batchdesk run b1`')).toBe('`batchdesk run b1`');
    expect(carrierFor(['status', '--data-dir', '/tmp/d'], 'linux')('`batchdesk run b1`')).toBe('`batchdesk run b1 --data-dir /tmp/d`');
  });

  it("types the --store given in place of a team command's `--store URL`, never with its password", () => {
    const given = carrierFor(['pause', 'b1', '--store', 'postgresql://ops:hunter2@db.lan:5432/team?sslmode=require&password=s3cret'], 'linux');
    const said = given('Paused b1. `batchdesk resume b1 --store URL` continues it; `batchdesk run --watch --store URL` sends it.');
    expect(said).toBe(
      "Paused b1. `batchdesk resume b1 --store 'postgresql://ops@db.lan:5432/team?sslmode=require'` continues it; `batchdesk run --watch --store 'postgresql://ops@db.lan:5432/team?sslmode=require'` sends it.",
    );
    expect(said).not.toMatch(/hunter2|s3cret|--store URL/);
    // Joined to its flag, and beside a carried data folder.
    expect(carrierFor(['status', '--store=postgresql://db/team', '--data-dir', '/tmp/d'], 'linux')('`batchdesk resume b1 --budget 8.19 --store URL`')).toBe(
      '`batchdesk resume b1 --budget 8.19 --store postgresql://db/team --data-dir /tmp/d`',
    );
    expect(givenStore(['status', '--', '--store', 'postgresql://db/x'], 'linux')).toBeNull();
  });

  it('leaves the flag out when BATCHDESK_STORE names the store (no --store given)', () => {
    const carry = carrierFor(['pause', 'b1'], 'linux');
    expect(carry('`batchdesk resume b1 --store URL` continues it.')).toBe('`batchdesk resume b1` continues it.');
    expect(carry('`batchdesk run b1 --store URL --switch-api`')).toBe('`batchdesk run b1 --switch-api`');
    // Not a suggested command (a help line, words about the flag): as written.
    expect(carry('takes no --store; `run --watch --store URL` sends them')).toBe('takes no --store; `run --watch --store URL` sends them');
  });
});
