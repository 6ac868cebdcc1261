// Suggested commands carry the --data-dir / --api-url the user gave, so that one copied as
// printed works on the same data folder.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { carriedOutput, carryGlobals, givenGlobals, shellWord, withCarriedGlobals } from '../../../src/main/cli/suggested-commands';
import type { Io } from '../../../src/main/cli/io';

describe('suggested commands', () => {
  it('finds the global options given, in either spelling, and quotes them for the shell', () => {
    expect(givenGlobals(['status', '--data-dir', '/tmp/d'], 'linux')).toBe('--data-dir /tmp/d');
    expect(givenGlobals(['run', '--api-url=http://127.0.0.1:8080', 'b1', '--data-dir', "/tmp/Bob's data"], 'linux')).toBe(
      "--data-dir '/tmp/Bob'\\''s data' --api-url http://127.0.0.1:8080",
    );
    expect(givenGlobals(['status', '--data-dir', 'C:\\Users\\me\\batch data'], 'win32')).toBe('--data-dir "C:\\Users\\me\\batch data"');
    // Defaults and the environment need no carrying; what follows `--` is not an option.
    expect(givenGlobals(['status'], 'linux')).toBe('');
    expect(givenGlobals(['batch', 'create', 'text', '--', '--data-dir', 'x'], 'linux')).toBe('');
    expect(shellWord('~/calls/2026-11', 'linux')).toBe('~/calls/2026-11');
  });

  it('adds them to every suggested command that does not name them, before a `--`', () => {
    const g = '--data-dir /tmp/d';
    expect(carryGlobals('Start it: `batchdesk run b1` (or pause with `batchdesk pause b1`).', g)).toBe(
      'Start it: `batchdesk run b1 --data-dir /tmp/d` (or pause with `batchdesk pause b1 --data-dir /tmp/d`).',
    );
    expect(carryGlobals('`batchdesk resume b1 --store URL`', g)).toBe('`batchdesk resume b1 --store URL --data-dir /tmp/d`');
    expect(carryGlobals('`batchdesk search x -- --literal`', g)).toBe('`batchdesk search x --data-dir /tmp/d -- --literal`');
    // Already there, help, a word that is not a suggestion, or nothing given: unchanged.
    for (const same of ['`batchdesk run --data-dir /x b1`', 'Run `batchdesk run --help` for usage.', 'batchdesk run b1', '`batchdesk-test`']) {
      expect(carryGlobals(same, g)).toBe(same);
    }
    expect(carryGlobals('`batchdesk run b1`', '')).toBe('`batchdesk run b1`');
  });

  it('keeps a --json document valid whatever the path holds', () => {
    const doc = `${JSON.stringify({ problems: [{ message: 'x.csv row 2: opted out; `batchdesk optout remove +44` to undo' }], n: 1 }, null, 2)}\n`;
    const g = givenGlobals(['--data-dir', 'C:\\data "new"'], 'win32');
    const out = carriedOutput(doc, g);
    const parsed = JSON.parse(out) as { problems: { message: string }[]; n: number };
    expect(parsed.problems[0]?.message).toBe('x.csv row 2: opted out; `batchdesk optout remove +44 --data-dir "C:\\data ""new"""` to undo');
    expect(parsed.n).toBe(1);
    expect(out.endsWith('}\n')).toBe(true);
  });

  it("wraps the command line's output streams, and leaves them alone when nothing was given", () => {
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.toString();
        done();
      },
    });
    const io = { stdout: sink, stderr: sink, stdin: process.stdin, env: {} } as unknown as Io;
    expect(withCarriedGlobals(io, ['status'])).toBe(io);
    const carried = withCarriedGlobals(io, ['status', '--data-dir', '/tmp/d']);
    carried.stdout.write('Then `batchdesk run b1`.\n');
    carried.stderr.write(Buffer.from('`batchdesk run b2`\n'));
    expect(written).toBe('Then `batchdesk run b1 --data-dir /tmp/d`.\n`batchdesk run b2`\n');
  });
});
