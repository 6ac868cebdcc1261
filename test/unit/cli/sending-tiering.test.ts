// The V8 flags the sending commands set must exist in the runtimes Batchdesk runs on: V8 prints
// "unrecognized flag" to stderr for one it does not know, on every run (as --interrupt-budget did
// once V8 12 had replaced it).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { V8_TIERING } from '../../../src/main/cli/sending-tiering';
import { secondNodeAvailable, secondNodeBinary } from '../../helpers/second-node';

function knownFlags(node: string): Set<string> {
  const out = spawnSync(node, ['--v8-options'], { encoding: 'utf8' }).stdout;
  return new Set([...out.matchAll(/^ {2}--([a-z0-9-]+) /gm)].map((m) => m[1] ?? ''));
}

const names = V8_TIERING.split(' ').map((f) => /^--([a-z0-9-]+)=/.exec(f)?.[1] ?? f);

describe('V8 tiering of the sending commands', () => {
  it('names only flags this runtime knows', () => {
    const known = knownFlags(process.execPath);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  it.skipIf(!secondNodeAvailable)('and flags the second runtime (Node 22) knows', () => {
    const known = knownFlags(secondNodeBinary());
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });
});
